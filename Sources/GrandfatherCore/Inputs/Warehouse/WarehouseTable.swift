import GrandfatherEngine

/// One table of a `normalize` folder read row by row, by column name: what `WarehouseSource`
/// reads its side tables and its customers with.
enum WarehouseTable {
    /// What reading a file gave: its accounting and the rows it could not read as fields.
    struct File {
        var report: InputReport
        var rejections: [Rejection]
    }

    /// Calls `body` with each row's line and values, in `columns`' order (an empty cell is
    /// `nil`); `body` returns a problem to reject the row with.
    static func read(
        _ path: String, kind: RecordKind, columns: [String],
        _ body: (_ line: Int, _ values: [String?]) -> RowProblem?
    ) throws(GrandfatherError) -> File {
        let source = try InputFile.open(path)
        guard let header = try Records.header(of: source) else {
            throw .input(file: path, line: 1, message: "no CSV header")
        }
        let reader = CSVReader(header: header, fieldNames: columns)
        // The closure lives only as long as the reading: the counts are taken out of the sink.
        let rows = try withoutActuallyEscaping(body) { body throws(GrandfatherError) in
            var rows = Rows(path: path, columns: columns.count, body: body)
            _ = try Records.read(
                source, with: reader, range: source.dataStart..<source.size, isFirst: true, into: &rows, meter: nil)
            return (read: rows.read, rejections: rows.rejections)
        }
        let report = InputReport(
            path: path, format: .warehouse, kind: kind, sizeBytes: Int64(source.storedSize),
            sha256: try InputFile.sha256(of: source), rowsRead: rows.read,
            rowsAccepted: rows.read - rows.rejections.count,
            rowsRejected: rows.rejections.count, exactDuplicates: 0, sandboxRows: 0)
        return File(report: report, rejections: rows.rejections.sorted { $0.line < $1.line })
    }

    private struct Rows: RowSink {
        let path: String
        let columns: Int
        let body: (Int, [String?]) -> RowProblem?
        var read = 0
        var rejections: [Rejection] = []

        mutating func accept(_ row: RawRow) {
            read += 1
            if let problem = body(row.line, (0..<columns).map { row.text($0) }) {
                rejections.append(
                    Rejection(
                        file: path, line: row.line, column: problem.column, field: problem.field, reason: problem.reason
                    ))
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            read += 1
            rejections.append(Rejection(file: path, line: line, column: column, field: field, reason: reason))
        }
    }
}
