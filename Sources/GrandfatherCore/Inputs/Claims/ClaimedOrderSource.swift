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
            outcome.claims += sink.claims
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

    /// `text` without the white space around it: spaces and tabs, and the no-break spaces a
    /// number pasted from a web page brings (U+00A0, U+202F…).
    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
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
            // Order numbers are copied by hand from a payments page: surrounding spaces are no part.
            guard let id = row.text(0) else { return refuse(row.line, field: 0, "customer_id is empty") }
            guard let order = row.text(1).map(trimmed), !order.isEmpty else {
                return refuse(row.line, field: 1, "order_number is empty")
            }
            for (field, text) in [(0, id), (1, order)] {
                if let problem = IngestSink.problem(text, named: columns[field]) {
                    return refuse(row.line, field: field, problem)
                }
            }
            let claim = ClaimedOrderRules.Claim(customerID: id, order: order)
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
