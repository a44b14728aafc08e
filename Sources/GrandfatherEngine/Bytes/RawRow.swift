/// One record as read, before normalization: where the bytes of each known field lie.
///
/// A row borrows its bytes from the reader (the CSV collector's buffer, or the JSON
/// reader's scratch buffer) and is valid only while the sink handles it, so reading copies
/// nothing per field; unknown columns and keys never reach it. Its spans live behind a raw
/// pointer the reader allocates once, so passing a row along costs no reference counting.
public struct RawRow {
    /// Where a field's bytes lie, or why there are none.
    public struct Span: Equatable {
        var start: Int
        /// Byte count; `absent` when the field is missing, empty or JSON null; `nested` for a
        /// JSON object or array in a known field (SPEC §8.3 rejects the row); `boolean` for
        /// `true` or `false`, which no field of SPEC §2 is (a broken export's, rejected too).
        public var count: Int
        /// 1-based CSV column of the field, 0 for JSON.
        public var column: Int

        static let absent = -1
        public static let nested = -2
        public static let boolean = -3
    }

    /// A known field longer than this rejects the row (`TextBytes.maximumBytes`, the one
    /// rule's limit): readers keep at most one byte more of any field.
    public static let maximumFieldBytes = TextBytes.maximumBytes

    /// The line the record starts on.
    public var line: Int = 0
    /// The bytes the spans point into.
    var base: UnsafeRawPointer?
    /// One span per field of the record kind.
    public let spans: UnsafeMutablePointer<Span>
    let fieldCount: Int

    /// An empty row for a kind with `fieldCount` fields; the reader calls `deallocate` when done.
    init(fieldCount: Int) {
        self.fieldCount = fieldCount
        spans = .allocate(capacity: fieldCount)
        spans.initialize(repeating: Span(start: 0, count: Span.absent, column: 0), count: fieldCount)
    }

    func deallocate() {
        spans.deallocate()
    }

    /// Forgets the previous record's values.
    mutating func reset(line: Int, base: UnsafeRawPointer?) {
        self.line = line
        self.base = base
        for index in 0..<fieldCount { spans[index].count = Span.absent }
    }

    /// Points a field at `count` bytes from `start`; empty means absent (SPEC §2).
    func set(field: Int, column: Int, start: Int, count: Int) {
        spans[field] = Span(start: start, count: count > 0 ? count : Span.absent, column: column)
    }

    /// Marks a field as holding a nested JSON value.
    func setNested(field: Int) {
        spans[field] = Span(start: 0, count: Span.nested, column: 0)
    }

    /// Marks a field as holding a JSON `true` or `false`.
    func setBoolean(field: Int) {
        spans[field] = Span(start: 0, count: Span.boolean, column: 0)
    }

    /// Whether a field has a value.
    public func has(_ field: Int) -> Bool { spans[field].count > 0 }

    /// A field's text, `nil` when it has no value: how a source outside the engine reads
    /// the columns it maps itself (a RevenueCat export's). Invalid UTF-8 is repaired, and the
    /// source's checks then see the replacement character.
    public func text(_ field: Int) -> String? {
        has(field) ? String(decoding: bytes(field), as: UTF8.self) : nil
    }

    /// Why the one rule (`TextBytes`) refuses a field's text as a `kind`; `nil` when it is
    /// absent or kept. Read before `text(_:)`, which repairs what this refuses.
    public func problem(_ field: Int, as kind: TextBytes.Kind) -> TextBytes.Problem? {
        has(field) ? TextBytes.problem(bytes(field), as: kind) : nil
    }

    /// The 1-based CSV column a field was read from; `nil` for JSON, or when it was not read.
    public func column(of field: Int) -> Int? {
        let column = spans[field].column
        return column > 0 ? column : nil
    }

    /// Gives `body` the bytes of a field that has a value, as a span a source outside the
    /// engine can read safely; `nil` when the field has none.
    @inline(__always)
    public func withSpan<Result>(_ field: Int, _ body: (Swift.Span<UInt8>) -> Result) -> Result? {
        let raw = bytes(field)
        guard raw.count > 0 else { return nil }
        return body(raw.assumingMemoryBound(to: UInt8.self).span)
    }

    /// The bytes of a field that has a value.
    public func bytes(_ field: Int) -> UnsafeRawBufferPointer {
        let span = spans[field]
        guard let base, span.count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + span.start, count: span.count)
    }
}
