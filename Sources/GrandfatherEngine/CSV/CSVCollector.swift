import CLibCSV

/// Gathers libcsv's callbacks for one chunk: field bytes back to back, record boundaries,
/// and the physical line each record starts on (libcsv reports none, so lines are counted
/// from the terminators it reports and the line breaks inside quoted fields).
///
/// The callbacks run once per field, tens of millions of times per file, so the state is a
/// plain struct behind a raw pointer with manually grown buffers: no reference counting,
/// no bounds or uniqueness checks on the hot path.
///
/// What one record can cost is bounded whatever the input holds: a field keeps at most
/// `RawRow.maximumFieldBytes + 1` bytes, and a record at most `maximumFields` fields (the
/// rest are counted, not kept), so a 100 MB line, or one of a million commas, is a rejected
/// row rather than gigabytes of buffers.
struct CSVCollector {
    struct Record {
        var firstField: Int
        var firstByte: Int
        /// Every field the record has; only the first `maximumFields` are kept.
        var fieldCount: Int
        var line: Int
    }

    /// Fields kept per record.
    let maximumFields: Int

    private(set) var bytes = GrowableBuffer<UInt8>(capacity: 1 << 21)
    /// End offset in `bytes` of every field collected.
    private(set) var fieldEnds = GrowableBuffer<Int>(capacity: 1 << 16)
    private(set) var records = GrowableBuffer<Record>(capacity: 1 << 14)
    /// The line the next byte is on.
    private(set) var currentLine: Int
    private(set) var recordStartLine: Int
    private(set) var fieldsInRecord = 0
    private var recordFirstField = 0
    private var recordFirstByte = 0
    private var lastTerminatorWasCR = false
    /// False while parsing a chunk whose fields cannot hold a line break (`QuotedLineBreaks`).
    var fieldsMayHoldBreaks = true
    /// The parser this collector's buffer is lent to (see `lend(to:forBytes:)`), if any.
    private var borrower: UnsafeMutablePointer<csv_parser>?

    init(firstLine: Int = 1, maximumFields: Int = Int.max) {
        currentLine = firstLine
        recordStartLine = firstLine
        self.maximumFields = maximumFields
    }

    func deallocate() {
        bytes.deallocate()
        fieldEnds.deallocate()
        records.deallocate()
    }

    /// Whether libcsv has begun a record whose end it has not yet reported.
    var recordInProgress: Bool { fieldsInRecord > 0 }

    /// Where the lines stand between records: the line the next byte is on, and whether the
    /// last line end was a CR (whose LF, if one follows, ends no further line). `CSVReader`
    /// hands them to `PlainLineReader` for the lines it reads, and takes them back.
    var lineState: PlainLineReader.LineState {
        get { PlainLineReader.LineState(line: currentLine, afterCR: lastTerminatorWasCR) }
        set {
            currentLine = newValue.line
            lastTerminatorWasCR = newValue.afterCR
        }
    }

    /// The line a record still in progress started on (for a quote that never closes).
    var pendingRecordLine: Int { fieldsInRecord > 0 ? recordStartLine : currentLine }

    /// The bytes of field `index` (absolute index into `fieldEnds`) of `record`.
    func field(_ column: Int, of record: Record) -> UnsafeRawBufferPointer {
        let index = record.firstField + column
        let start = column == 0 ? record.firstByte : fieldEnds[index - 1]
        return UnsafeRawBufferPointer(start: bytes.base + start, count: fieldEnds[index] - start)
    }

    // Inlined into libcsv's callback: called from it, every field cost two calls.
    @inline(__always)
    mutating func field(_ data: UnsafeRawPointer?, _ length: Int) {
        if fieldsInRecord == 0 {
            recordStartLine = currentLine
            recordFirstField = fieldEnds.count
            recordFirstByte = bytes.count
        }
        if let data, length > 0 {
            if fieldsMayHoldBreaks, LineBreaks.mayContain(data, length) {
                currentLine += LineBreaks.count(data, length)
            }
            if fieldsInRecord < maximumFields {
                let kept = min(length, RawRow.maximumFieldBytes + 1)
                if borrower != nil, data == UnsafeRawPointer(bytes.base + bytes.count) {
                    // libcsv wrote the field where it belongs: keep it without a copy.
                    bytes.count += kept
                } else {
                    bytes.append(data, count: kept)
                }
            }
        }
        if fieldsInRecord < maximumFields { fieldEnds.append(bytes.count) }
        fieldsInRecord += 1
        lastTerminatorWasCR = false
        // The next field is written after this one (or over it, when it is not kept).
        if let borrower { Self.point(borrower, at: bytes.base + bytes.count, room: bytes.room) }
    }

    // MARK: Lending the buffer
    //
    // libcsv gathers each field's bytes in its entry buffer and hands that buffer to the field
    // callback, which had to copy them out: a tenth of reading a file. Instead the parser is
    // pointed into `bytes`, just after the last field kept, before each chunk, and again after
    // each field, so a field arrives where it is kept. libcsv reads `entry_buf` and
    // `entry_size` from the parser after every callback and every byte it stores; should it
    // ever hand over bytes from elsewhere, `field` copies them as before. The room lent is
    // more than the chunk can fill, so libcsv never grows the buffer; were it to try, it gets
    // `refuseToGrow`'s NULL and stops with an error rather than reallocating memory it does
    // not own.

    /// Points `parser` into the buffer for a chunk of `count` bytes, with room for all of them
    /// after the bytes of a field it has begun.
    mutating func lend(to parser: UnsafeMutablePointer<csv_parser>, forBytes count: Int) {
        if borrower == nil {
            // A field begun in libcsv's own buffer moves here first; the buffer is freed.
            if let own = parser.pointee.entry_buf {
                let begun = parser.pointee.entry_pos
                bytes.reserve(bytes.count + begun, keeping: 0)
                UnsafeMutableRawPointer(bytes.base + bytes.count).copyMemory(from: own, byteCount: begun)
                parser.pointee.free_func?(own)
            }
            parser.pointee.realloc_func = CSVCollector.refuseToGrow
            borrower = parser
        }
        let begun = parser.pointee.entry_pos
        bytes.reserve(bytes.count + begun + count + 1, keeping: begun)
        Self.point(parser, at: bytes.base + bytes.count, room: bytes.room)
    }

    /// Takes the buffer back before `csv_free`, which would free what `entry_buf` points at.
    mutating func reclaim() {
        guard let parser = borrower else { return }
        parser.pointee.entry_buf = nil
        parser.pointee.entry_size = 0
        parser.pointee.entry_pos = 0
        borrower = nil
    }

    private static func point(
        _ parser: UnsafeMutablePointer<csv_parser>, at position: UnsafeMutablePointer<UInt8>, room: Int
    ) {
        parser.pointee.entry_buf = position
        parser.pointee.entry_size = room
    }

    /// libcsv's realloc function while it writes into a lent buffer: it must never grow it.
    private static let refuseToGrow: @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer? = {
        _, _ in nil
    }

    @inline(__always)
    mutating func endRecord(_ terminator: Int32) {
        if fieldsInRecord == 0 {
            // A blank line, or the LF of a CRLF whose CR ended the previous record.
            if terminator == 0x0A, lastTerminatorWasCR {
                lastTerminatorWasCR = false
                return
            }
            if terminator == 0x0A || terminator == 0x0D { currentLine += 1 }
            lastTerminatorWasCR = terminator == 0x0D
            return
        }
        records.append(
            Record(
                firstField: recordFirstField, firstByte: recordFirstByte, fieldCount: fieldsInRecord,
                line: recordStartLine))
        fieldsInRecord = 0
        if terminator == 0x0A || terminator == 0x0D { currentLine += 1 }
        lastTerminatorWasCR = terminator == 0x0D
    }

    /// Drops delivered records, keeping the fields of a record still in progress (and the
    /// bytes of a field libcsv has begun in the lent buffer).
    mutating func compact() {
        records.removeAll()
        let begun = borrower?.pointee.entry_pos ?? 0
        if fieldsInRecord == 0 {
            if begun > 0 {
                UnsafeMutableRawPointer(bytes.base).copyMemory(from: bytes.base + bytes.count, byteCount: begun)
            }
            bytes.removeAll()
            fieldEnds.removeAll()
            if let borrower { Self.point(borrower, at: bytes.base, room: bytes.room) }
            return
        }
        let keptBytes = bytes.count - recordFirstByte
        UnsafeMutableRawPointer(bytes.base).copyMemory(
            from: bytes.base + recordFirstByte, byteCount: keptBytes + begun)
        bytes.count = keptBytes
        if let borrower { Self.point(borrower, at: bytes.base + keptBytes, room: bytes.room) }
        let keptFields = fieldEnds.count - recordFirstField
        for index in 0..<keptFields { fieldEnds[index] = fieldEnds[recordFirstField + index] - recordFirstByte }
        fieldEnds.count = keptFields
        recordFirstField = 0
        recordFirstByte = 0
    }
}
