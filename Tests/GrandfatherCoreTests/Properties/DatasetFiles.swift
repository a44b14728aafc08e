import GrandfatherTestSupport

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// One input file written from a generated dataset: its bytes, which rows it holds, and the
/// line each row starts on (SPEC §6: a CSV record's first line, a JSON element's `{`).
struct DatasetFile: Sendable {
    var name: String
    var kind: RecordKind
    var format: InputFormat
    /// Indices into the dataset's customers or transactions, in file order.
    var rows: [Int]
    /// The line each of `rows` starts on.
    var lines: [Int]
    /// The CSV header's names, in column order; empty for JSON.
    var header: [String]
    var bytes: [UInt8]
}

/// How a dataset is cut into files: every row of a kind once, in the given order.
struct FileLayout {
    var kind: RecordKind
    var format: InputFormat
    var rows: [Int]
}

extension GeneratedDataset {
    /// One customers file and one transactions file, rows in generated order, customers first.
    func singleFiles() -> [DatasetFile] {
        var random = SplitMix(seed: layoutSeed)
        let layouts = [
            FileLayout(kind: .customers, format: random.format(), rows: Array(customers.indices)),
            FileLayout(kind: .transactions, format: random.format(), rows: Array(transactions.indices)),
        ]
        return layouts.enumerated().map { render($1, name: "in\($0)", random: &random) }
    }

    /// The same rows shuffled within each kind, cut into one to three files per kind, each in
    /// its own format, and the files given in shuffled order.
    func scatteredFiles(seed: UInt64) -> [DatasetFile] {
        var random = SplitMix(seed: seed ^ layoutSeed)
        var layouts: [FileLayout] = []
        for (kind, count) in [(RecordKind.customers, customers.count), (.transactions, transactions.count)] {
            let rows = Array(0..<count).shuffled(using: &random)
            let parts = Int.random(in: 1...3, using: &random)
            var cuts = (0..<parts - 1).map { _ in Int.random(in: 0...count, using: &random) }.sorted()
            cuts = [0] + cuts + [count]
            for part in 0..<parts {
                layouts.append(
                    FileLayout(kind: kind, format: random.format(), rows: Array(rows[cuts[part]..<cuts[part + 1]])))
            }
        }
        layouts.shuffle(using: &random)
        return layouts.enumerated().map { render($1, name: "part\($0)", random: &random) }
    }

    /// Writes one file. A file without rows is a CSV header (a JSON file needs an object to
    /// be recognised at all).
    func render(_ layout: FileLayout, name: String, random: inout SplitMix) -> DatasetFile {
        let format = layout.rows.isEmpty ? .csv : layout.format
        let rows: [[Field]] = layout.rows.map { row in
            layout.kind == .customers
                ? customers[row].fields(note: random.note()) : transactions[row].fields(note: random.note())
        }
        var writer = FileWriter(crlf: Bool.random(using: &random), random: random)
        if Int.random(in: 0..<5, using: &random) == 0 { writer.bytes = [0xEF, 0xBB, 0xBF] }
        let names = (layout.kind.fieldNames + ["note"]).shuffled(using: &random)
        var lines: [Int] = []
        switch format {
        case .csv:
            writer.csvHeader(names)
            for fields in rows { lines.append(writer.csvRow(fields, names: names)) }
        case .jsonLines:
            for (index, fields) in rows.enumerated() {
                lines.append(writer.jsonLine(fields, names: names, first: index == 0))
            }
        case .jsonArray:
            writer.text("[")
            writer.lineBreak()
            for (index, fields) in rows.enumerated() {
                lines.append(writer.line)
                writer.jsonObject(fields, names: names, first: index == 0)
                if index < rows.count - 1 { writer.text(",") }
                writer.lineBreak()
            }
            writer.text("]")
            writer.lineBreak()
        default:
            preconditionFailure("generated datasets are canonical files only")
        }
        random = writer.random
        let file =
            name + [".csv", ".jsonl", ".json"][[InputFormat.csv, .jsonLines, .jsonArray].firstIndex(of: format) ?? 0]
        return DatasetFile(
            name: file, kind: layout.kind, format: format, rows: layout.rows, lines: lines,
            header: format == .csv ? names : [], bytes: writer.bytes)
    }
}

/// One field of a row as written: absent, text (raw bytes, possibly not UTF-8), a JSON number
/// literal, or a JSON object where a value belongs. `extra` marks a CSV row with one field too many.
enum FieldValue: Sendable {
    case absent
    case text([UInt8])
    /// Written as a bare number in JSON, as text in CSV.
    case number(String)
    /// An object in JSON; text in CSV.
    case nested(String)

    static func string(_ text: String) -> FieldValue { .text(Array(text.utf8)) }
}

typealias Field = (name: String, value: FieldValue)

extension CustomerRow {
    /// The row's fields, spelled by `spelling`, with an unknown `note`.
    func fields(note: String) -> [Field] {
        let id = Pools.customerIDs[self.id]
        var idValue = FieldValue.string(id)
        switch defect {
        case .missingRequired: idValue = .absent
        case .invalidUTF8: idValue = .text(Array("c".utf8) + [0xFF] + Array(id.utf8))
        case .nulByte: idValue = .text(Array("c".utf8) + [0x00] + Array(id.utf8))
        default: break
        }
        let (canonical, spellings) = Pools.platforms[platform]
        var platformValue = FieldValue.string(spellings[spelling % spellings.count])
        if defect == .unknownEnum { platformValue = .string("windows") }
        if defect == .structural { platformValue = .nested(canonical) }
        var purchaseValue = Self.date(Pools.dates[purchase], spelling: spelling)
        if defect == .badTimestamp { purchaseValue = .string("2024-02-30T00:00:00Z") }
        if defect == .outOfRange { purchaseValue = .string("99999999999999999999") }
        var preorder = hasPreorder ? Self.date(Pools.cutover - 10 * Pools.day, spelling: spelling / 5) : .absent
        if defect == .badValue { preorder = .string("2024-03-01T00:00:00") }
        let environment =
            isSandbox
            ? FieldValue.string(["sandbox", "xcode", "Sandbox", "XCODE"][spelling % 4])
            : [FieldValue.absent, .string("production"), .string("PRODUCTION")][spelling % 3]
        var versionValue = FieldValue.absent
        if let version = Pools.versions[version] {
            let isNumber = version.first != "0" && version.filter { $0 == "." }.count <= 1 && version != "abc"
            versionValue = isNumber && spelling % 2 == 1 ? .number(version) : .string(version)
        }
        return [
            ("customer_id", idValue), ("platform", platformValue), ("original_app_version", versionValue),
            ("original_purchase_date", purchaseValue), ("environment", environment), ("preorder_date", preorder),
            ("storefront", Pools.storefronts[storefront].map(FieldValue.string) ?? .absent),
            ("note", note.isEmpty ? .absent : .string(note)),
        ]
    }

    /// A timestamp in one of its spellings; epoch milliseconds are a JSON number when the spelling is odd.
    static func date(_ seconds: Int64?, spelling: Int) -> FieldValue {
        guard let seconds else { return .absent }
        let text = Pools.timestamp(seconds, spelling: spelling)
        return spelling % 5 == 2 && spelling % 2 == 1 ? .number(text) : .string(text)
    }
}

extension TransactionRow {
    /// The row's fields, spelled by `spelling`, with an unknown `note`.
    func fields(note: String) -> [Field] {
        let date = CustomerRow.date
        let customerID = Pools.transactionCustomerIDs[customer]
        var customerValue = FieldValue.string(customerID)
        if defect == .invalidUTF8 { customerValue = .text(Array(customerID.utf8) + [0xC3]) }
        if defect == .nulByte { customerValue = .text([0x00] + Array(customerID.utf8)) }
        var productValue = FieldValue.string(Pools.products[product])
        if defect == .missingRequired { productValue = .absent }
        if defect == .structural { productValue = .nested(Pools.products[product]) }
        let type = Pools.productTypes[self.type]
        var typeValue = FieldValue.string(spelling % 2 == 0 ? type : type.uppercased())
        if defect == .unknownEnum { typeValue = .string("subscription") }
        var purchaseValue = date(Pools.dates[purchase], spelling)
        if defect == .outOfRange { purchaseValue = .number("99999999999999999999") }
        var expiresValue = date(Pools.expiries[expires], spelling / 3)
        if defect == .badTimestamp { expiresValue = .string("soon") }
        var priceValue = FieldValue.absent
        var currency = FieldValue.absent
        switch price {
        case 1:
            let text = ["4.99", "4.990", "04.99"][spelling % 3]
            priceValue = text.first == "0" || spelling % 2 == 0 ? .string(text) : .number(text)
            currency = .string(spelling % 4 < 2 ? "USD" : "usd")
        case 2: priceValue = .string(["0", "0.00", "-0"][spelling % 3])
        default: break
        }
        if defect == .badValue { priceValue = .string("4,99") }
        let ownership = [
            [FieldValue.absent], [.string("purchased"), .string("Purchased")],
            [.string("family_shared"), .string("FAMILY_SHARED")],
        ][self.ownership]
        let state = Pools.renewalStates[renewalState].map { spelling % 2 == 0 ? $0 : $0.uppercased() }
        let transactionID = Pools.transactionIDs[id]
        return [
            (
                "transaction_id",
                transactionID.count > 10 && spelling % 2 == 1 ? .number(transactionID) : .string(transactionID)
            ),
            ("original_transaction_id", id % 3 == 0 ? .string("o\(id)") : .absent),
            ("customer_id", customerValue), ("product_id", productValue), ("product_type", typeValue),
            ("purchase_date", purchaseValue), ("expires_date", expiresValue),
            ("revocation_date", isRevoked ? date(Pools.cutover + 10 * Pools.day, spelling / 2) : .absent),
            ("ownership_type", ownership[spelling % ownership.count]),
            (
                "environment",
                isSandbox
                    ? .string(["sandbox", "xcode"][spelling % 2]) : [.absent, .string("production")][spelling % 2]
            ),
            ("price", priceValue), ("currency", currency), ("renewal_state", state.map(FieldValue.string) ?? .absent),
            ("grace_period_expires_date", hasGrace ? date(Pools.asOf + 5 * Pools.day, spelling / 4) : .absent),
            ("note", note.isEmpty ? .absent : .string(note)),
        ]
    }
}

/// Writes CSV and JSON bytes, counting physical lines as it goes.
struct FileWriter {
    let crlf: Bool
    var random: SplitMix
    var bytes: [UInt8] = []
    /// The line the next byte is on.
    private(set) var line = 1

    init(crlf: Bool, random: SplitMix) {
        self.crlf = crlf
        self.random = random
    }

    mutating func text(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func lineBreak() {
        text(crlf ? "\r\n" : "\n")
        line += 1
    }

    /// Sometimes a blank line: not a row, but a line (SPEC §8.2).
    private mutating func maybeBlankLine() {
        if Int.random(in: 0..<8, using: &random) == 0 { lineBreak() }
    }

    mutating func csvHeader(_ names: [String]) {
        text(names.joined(separator: ","))
        lineBreak()
    }

    /// Writes one record in the header's column order; returns the line it starts on.
    mutating func csvRow(_ fields: [Field], names: [String]) -> Int {
        maybeBlankLine()
        let start = line
        var extra = false
        for (column, name) in names.enumerated() {
            if column > 0 { text(",") }
            let value = fields.first { $0.name == name }?.value ?? .absent
            switch value {
            case .absent: break
            case .text(let raw): csvCell(raw)
            case .number(let literal): csvCell(Array(literal.utf8))
            case .nested(let inner):
                extra = true
                csvCell(Array(inner.utf8))
            }
        }
        if extra { text(",one too many") }
        lineBreak()
        return start
    }

    /// A cell, quoted when it must be (and now and then when it need not be); a line break in
    /// it is the file's own and counts as a line.
    private mutating func csvCell(_ raw: [UInt8]) {
        let special: Set<UInt8> = [0x2C, 0x22, 0x0A, 0x0D]
        guard raw.contains(where: special.contains) || Int.random(in: 0..<10, using: &random) == 0 else {
            bytes.append(contentsOf: raw)
            return
        }
        bytes.append(0x22)
        for byte in raw {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x22, 0x22])
            case 0x0A:
                if crlf { bytes.append(0x0D) }
                bytes.append(0x0A)
                line += 1
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    /// Writes one JSON Lines record; returns its line.
    mutating func jsonLine(_ fields: [Field], names: [String], first: Bool) -> Int {
        maybeBlankLine()
        let start = line
        jsonObject(fields, names: names, first: first)
        lineBreak()
        return start
    }

    /// An object with keys in `names` order; an absent value is `null`, or left out (never in
    /// the first object, whose keys tell the file's kind).
    mutating func jsonObject(_ fields: [Field], names: [String], first: Bool) {
        text("{")
        var separator = ""
        for name in names {
            let value = fields.first { $0.name == name }?.value ?? .absent
            if case .absent = value, !first, Bool.random(using: &random) { continue }
            text(separator + "\"\(name)\": ")
            separator = ", "
            switch value {
            case .absent: text("null")
            case .text(let raw): jsonString(raw)
            case .number(let literal): text(literal)
            case .nested(let inner):
                text("{\"name\": ")
                jsonString(Array(inner.utf8))
                text("}")
            }
        }
        text("}")
    }

    /// A JSON string: quotes, backslashes and control characters escaped; other bytes raw
    /// (so invalid UTF-8 stays invalid), non-ASCII now and then as `\u` escapes.
    private mutating func jsonString(_ raw: [UInt8]) {
        bytes.append(0x22)
        let escapeUnicode = Bool.random(using: &random)
        if escapeUnicode, let text = String(validating: raw, as: UTF8.self), raw.contains(where: { $0 >= 0x80 }) {
            for scalar in text.unicodeScalars {
                if scalar.value >= 0x80, scalar.value <= 0xFFFF {
                    let hex = String(scalar.value, radix: 16)
                    self.text("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    escape(Array(String(scalar).utf8))
                }
            }
        } else {
            escape(raw)
        }
        bytes.append(0x22)
    }

    private mutating func escape(_ raw: [UInt8]) {
        for byte in raw {
            switch byte {
            case 0x22: text("\\\"")
            case 0x5C: text("\\\\")
            case 0x0A: text("\\n")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                text("\\u00" + (hex.count == 1 ? "0" : "") + hex)
            default: bytes.append(byte)
            }
        }
    }
}

/// Layout choices drawn from the seeded generator, so that a property's seed reproduces files too.
extension SplitMix {
    mutating func format() -> InputFormat {
        [.csv, .csv, .jsonLines, .jsonArray][Int.random(in: 0..<4, using: &self)]
    }

    /// An unknown column's value: empty, plain, or one that needs quoting or spans lines.
    mutating func note() -> String {
        ["", "", "plain", "two\nlines", "a,b", "say \"hi\"", " padded ", "=SUM(A1)", "\n\n"][
            Int.random(in: 0..<9, using: &self)]
    }
}
