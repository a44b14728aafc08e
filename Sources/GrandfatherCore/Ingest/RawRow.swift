/// One record as read, before normalization: the bytes of each known field, by field index.
///
/// Readers reuse one `RawRow` for every record of a file, so reading allocates nothing
/// per field; unknown columns and keys never reach it.
public struct RawRow: Sendable {
    /// Where a field's bytes lie in `bytes`, or why there are none.
    public struct Span: Sendable, Equatable {
        public var start: Int32
        /// Byte count; `absent` when the field is missing, empty or JSON null; `nested` for a
        /// JSON object or array in a known field (SPEC §8.3 rejects the row).
        public var count: Int32
        /// 1-based CSV column of the field, 0 for JSON.
        public var column: Int32

        public static let absent: Int32 = -1
        public static let nested: Int32 = -2
    }

    /// The line the record starts on.
    public var line: Int = 0
    /// Field bytes, back to back.
    public var bytes: [UInt8] = []
    /// One span per field of the record kind.
    public var spans: [Span]

    /// An empty row for a kind with `fieldCount` fields.
    public init(fieldCount: Int) {
        spans = Array(repeating: Span(start: 0, count: Span.absent, column: 0), count: fieldCount)
        bytes.reserveCapacity(1024)
    }

    /// Forgets the previous record's values, keeping capacity.
    mutating func reset(line: Int) {
        self.line = line
        bytes.removeAll(keepingCapacity: true)
        for index in spans.indices { spans[index].count = Span.absent }
    }

    /// Stores a field's bytes; empty means absent (SPEC §2).
    mutating func set(field: Int, column: Int, bytes value: UnsafeRawBufferPointer) {
        guard !value.isEmpty else {
            spans[field] = Span(start: 0, count: Span.absent, column: Int32(column))
            return
        }
        spans[field] = Span(start: Int32(bytes.count), count: Int32(value.count), column: Int32(column))
        bytes.append(contentsOf: value)
    }

    /// Marks a field as holding a nested JSON value.
    mutating func setNested(field: Int) {
        spans[field] = Span(start: 0, count: Span.nested, column: 0)
    }

    /// Whether a field has a value.
    func has(_ field: Int) -> Bool { spans[field].count > 0 }
}
