/// Lays canonical field text out as a `RawRow`, so that a source whose files do not come
/// in SPEC §2's fields (App Store records, once linked) gives rows that pass through the
/// normalizer exactly as CSV rows do.
struct CanonicalRowWriter {
    private var buffer: [UInt8] = []
    private var rows: [Int: RawRow] = [:]

    /// Gives `sink` one row of `fields` (field → text; absent fields are empty), numbered `line`.
    mutating func emit<Field: RawRepresentable & Hashable>(
        _ fields: [Field: String], fieldCount: Int, line: Int, into sink: inout IngestSink
    ) where Field.RawValue == Int {
        let row = rows[fieldCount] ?? RawRow(fieldCount: fieldCount)
        rows[fieldCount] = row
        buffer.removeAll(keepingCapacity: true)
        var spans: [(field: Int, start: Int, count: Int)] = []
        for (field, text) in fields {
            spans.append((field.rawValue, buffer.count, text.utf8.count))
            buffer.append(contentsOf: text.utf8)
        }
        var current = row
        buffer.withUnsafeBytes { raw in
            current.reset(line: line, base: raw.baseAddress)
            for span in spans { current.set(field: span.field, column: 0, start: span.start, count: span.count) }
            sink.accept(current)
        }
    }
}
