/// Rows a source lays out itself from texts (a mapped export's row, rewritten into SPEC §2's
/// fields), handed to a `RowSink` as a reader hands the rows it parses: the sink reads them
/// through the same `RawRow`, so its checks and normalisation are every row's.
public final class RowBuilder {
    private var row: RawRow
    private var buffer: [UInt8] = []
    private var places: [(start: Int, count: Int)]

    /// A builder of rows of `fieldCount` fields.
    public init(fieldCount: Int) {
        row = RawRow(fieldCount: fieldCount)
        places = Array(repeating: (0, 0), count: fieldCount)
    }

    deinit { row.deallocate() }

    /// Gives `sink` the row at `line` whose fields are `texts` in field order (`nil` or empty:
    /// absent), each read from the 1-based column `columns[field]` (0: none, a constant).
    public func deliver<Sink: RowSink>(_ texts: [String?], columns: [Int], line: Int, to sink: inout Sink) {
        precondition(texts.count == places.count && columns.count == places.count, "one text and column per field")
        buffer.removeAll(keepingCapacity: true)
        for (field, text) in texts.enumerated() {
            let start = buffer.count
            if let text { buffer.append(contentsOf: text.utf8) }
            places[field] = (start, buffer.count - start)
        }
        buffer.withUnsafeBytes { raw in
            row.reset(line: line, base: raw.baseAddress)
            for (field, place) in places.enumerated() where place.count > 0 {
                row.set(field: field, column: columns[field], start: place.start, count: place.count)
            }
            sink.accept(row)
        }
    }
}
