/// A Scheduled Data Export CSV file read into transactions and rejected rows (FORMATS.md §a):
/// columns matched by header name in any order, unknown columns ignored, every row either
/// read or rejected with its line and reason.
enum ExportFile {
    /// Whether `header` is a Scheduled Data Export's: it names every required column.
    static func recognizes(header: [String]) -> Bool {
        Set(header).isSuperset(of: ExportColumn.required.map(\.name))
    }

    /// Reads the file at `path`, whose header `recognizes(header:)` accepted, giving
    /// `handler` each row in line order.
    /// - Parameter productTypes: the policy's `products[id].type`.
    static func read<Handler: ExportRowHandler>(
        _ path: String, header: [String], productTypes: [String: ProductType] = [:], into handler: inout Handler,
        meter: ProgressMeter? = nil
    ) throws(GrandfatherError) {
        let source = try ByteSource(path: path)
        let reader = CSVReader(header: header, fieldNames: ExportColumn.allCases.map(\.name))
        var sink = Sink(productTypes: productTypes, handler: handler)
        _ = try reader.read(source, range: source.dataStart..<source.size, isFirst: true, into: &sink, meter: meter)
        handler = sink.handler
    }

    /// What one file held, in line order.
    struct Contents: ExportRowHandler, Sendable {
        var transactions: [(line: Int, transaction: ExportTransaction)] = []
        var rejections: [(line: Int, reason: String)] = []

        mutating func accept(_ transaction: ExportTransaction, line: Int) {
            transactions.append((line, transaction))
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            rejections.append((line, reason))
        }
    }

    /// Reads the file at `path` whole, for a look at what it holds.
    static func read(
        _ path: String, header: [String], productTypes: [String: ProductType] = [:]
    ) throws(GrandfatherError) -> Contents {
        var contents = Contents()
        try read(path, header: header, productTypes: productTypes, into: &contents)
        return contents
    }

    /// Turns each row the CSV reader delivers into a transaction or a rejection.
    private struct Sink<Handler: ExportRowHandler>: RowSink {
        let productTypes: [String: ProductType]
        var handler: Handler

        mutating func accept(_ row: RawRow) {
            switch ExportTransaction.read({ row.text($0.rawValue) }, productTypes: productTypes) {
            case .success(let transaction):
                handler.accept(transaction, line: row.line)
            case .failure(let problem):
                handler.reject(
                    line: row.line, column: row.column(of: problem.column.rawValue), field: problem.column.name,
                    reason: problem.description)
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            handler.reject(line: line, column: column, field: field, reason: reason)
        }
    }
}

/// Receives the rows of a Scheduled Data Export, in line order.
protocol ExportRowHandler {
    /// A row read into a transaction.
    mutating func accept(_ transaction: ExportTransaction, line: Int)
    /// A row that cannot be read, with the 1-based column and name of the field at fault when
    /// one is.
    mutating func reject(line: Int, column: Int?, field: String?, reason: String)
}
