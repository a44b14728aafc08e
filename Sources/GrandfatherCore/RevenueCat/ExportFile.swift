/// A Scheduled Data Export CSV file read into transactions and rejected rows (FORMATS.md §a):
/// columns matched by header name in any order, unknown columns ignored, every row either
/// read or rejected with its line and reason.
enum ExportFile {
    /// What one file held, in line order.
    struct Contents: Sendable {
        var transactions: [(line: Int, transaction: ExportTransaction)] = []
        var rejections: [(line: Int, reason: String)] = []
    }

    /// Whether `header` is a Scheduled Data Export's: it names every required column.
    static func recognizes(header: [String]) -> Bool {
        Set(header).isSuperset(of: ExportColumn.required.map(\.name))
    }

    /// Reads the file at `path`, whose header `recognizes(header:)` accepted.
    /// - Parameter productTypes: the policy's `products[id].type`.
    static func read(
        _ path: String, header: [String], productTypes: [String: ProductType] = [:]
    ) throws(GrandfatherError) -> Contents {
        let source = try ByteSource(path: path)
        let reader = CSVReader(header: header, fieldNames: ExportColumn.allCases.map(\.name))
        var sink = Sink(productTypes: productTypes)
        _ = try reader.read(source, range: source.dataStart..<source.size, isFirst: true, into: &sink)
        return sink.contents
    }

    /// Turns each row the CSV reader delivers into a transaction or a rejection.
    private struct Sink: RowSink {
        let productTypes: [String: ProductType]
        var contents = Contents()

        mutating func accept(_ row: RawRow) {
            switch ExportTransaction.read({ row.text($0.rawValue) }, productTypes: productTypes) {
            case .success(let transaction): contents.transactions.append((row.line, transaction))
            case .failure(let problem): contents.rejections.append((row.line, problem.description))
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            contents.rejections.append((line, reason))
        }
    }
}
