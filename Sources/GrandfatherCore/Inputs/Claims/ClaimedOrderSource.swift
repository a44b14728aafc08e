import GrandfatherEngine

extension InputFormat {
    /// A two-column CSV file of the store orders customers claim: `customer_id, order_number`.
    public static let claimedOrders = InputFormat(rawValue: "claimed-orders")
}

/// The Google Play orders customers claim (the `GPA.…` number on their Google payments page,
/// kept by the team): a CSV file whose header is exactly `customer_id` and `order_number`, in
/// either order. A claim gives no record as it is read: every claim of the run is weighed
/// together, once every store report has been read (`ClaimedOrderRules`), since an order
/// claimed by two customers is evidence for neither.
enum ClaimedOrderSource: InputSource {
    /// The file's two columns, as its header names them.
    static let columns = ["customer_id", "order_number"]

    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let line = file.firstLine() else { return nil }
        // A spreadsheet may quote the names: `"customer_id","order_number"` is the same header.
        let names = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            unquoted(trimmed(String(decoding: $0, as: UTF8.self))).lowercased()
        }
        guard names.count == 2, Set(names) == Set(columns) else { return nil }
        return RecognizedInput(
            description: file.describe(format: .claimedOrders, kind: .evidence), source: Self.self, detail: ())
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        for input in inputs {
            let path = input.description.path
            let source = try InputFile.open(path)
            let digest = try InputFile.sha256(of: source)
            guard
                let given = try Records.header(of: source)
            else { throw .input(file: path, line: 1, message: "claimed orders file has no header") }
            let header = given.map { trimmed($0).lowercased() }
            let reader = CSVReader(header: header, fieldNames: columns)
            var sink = Sink(path: path, positions: columns.map { name in (header.firstIndex(of: name) ?? 0) + 1 })
            _ = try Records.read(
                source, with: reader, range: source.dataStart..<source.size, isFirst: true, into: &sink,
                meter: stream.meter)
            outcome.findings.handOn(ClaimedOrders(claims: sink.claims))
            let report = InputReport(
                path: path, format: .claimedOrders, kind: .evidence, sizeBytes: Int64(source.storedSize),
                sha256: digest,
                rowsRead: sink.rowsRead, rowsAccepted: sink.rowsRead - sink.rejections.count,
                rowsRejected: sink.rejections.count, exactDuplicates: sink.repeated, sandboxRows: 0)
            outcome.files.append((report, sink.rejections))
        }
        return outcome
    }

    /// `text` without one pair of double quotes around it.
    private static func unquoted(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }

    /// A header name without the white space around it (an order number is never trimmed:
    /// one pasted with U+00A0 around it is refused by the one rule, `TextBytes`).
    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// `text` without the ASCII spaces and tabs around it.
    static func withoutBlanks(_ text: String) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }

    /// Takes each row's claim, or rejects it.
    private struct Sink: RowSink {
        let path: String
        /// Each column's position in the header, from 1.
        let positions: [Int]
        var claims: [ClaimedOrderRules.Claim] = []
        var seen: Set<ClaimedOrderRules.Claim> = []
        var rowsRead = 0
        var repeated = 0
        var rejections: [Rejection] = []

        mutating func accept(_ row: RawRow) {
            rowsRead += 1
            var texts: [String] = []
            for field in 0..<columns.count {
                if let problem = row.problem(field, as: .identifier) {
                    return refuse(row.line, field: field, problem.reason(columns[field]))
                }
                // The list is typed by hand (`c1, GPA.1`): the blanks a keyboard makes around a
                // value are the format's, not the value's. What is left is judged again, so an
                // invisible space a paste brings (U+00A0) is refused, never trimmed away.
                let text = row.text(field).map(ClaimedOrderSource.withoutBlanks) ?? ""
                if text.isEmpty { return refuse(row.line, field: field, "\(columns[field]) is empty") }
                if let problem = TextBytes.problem(text, as: .identifier) {
                    return refuse(row.line, field: field, problem.reason(columns[field]))
                }
                texts.append(text)
            }
            let claim = ClaimedOrderRules.Claim(customerID: texts[0], order: texts[1])
            if seen.insert(claim).inserted { claims.append(claim) } else { repeated += 1 }
        }

        private mutating func refuse(_ line: Int, field: Int, _ reason: String) {
            rejections.append(
                Rejection(file: path, line: line, column: positions[field], field: columns[field], reason: reason))
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            rowsRead += 1
            rejections.append(Rejection(file: path, line: line, column: column, field: field, reason: reason))
        }
    }
}
