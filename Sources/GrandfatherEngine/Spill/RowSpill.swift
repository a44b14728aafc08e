import Foundation

/// Records a source has mapped, kept on disk between two passes: a RevenueCat export is parsed
/// once, each row written here as a typed record with its delivery key and version, and read
/// back once the run knows which deliveries are the latest. Parsing the
/// export a second time would cost as much again as the first (an export row is over twice a
/// canonical row's bytes); holding the rows in memory would cost about 100 bytes each.
///
/// The file is unlinked as soon as it is made, so nothing is left behind whatever ends the
/// run, and it lives in the page cache while it is small enough to.
///
/// A record: line, key and version (8 bytes each); one byte per field, its length when under
/// `longLength`, else `longLength` or `absentLength`; then each present field in field order,
/// its bytes after a 4-byte length where the length byte is `longLength`. Fields are short
/// (ids, codes, a few words of scalars), so a byte per length keeps the file, which the kernel
/// copies in and out, about a fifth smaller than four bytes would; and as a long field's
/// length sits beside it, the writer lays each field straight into the record as it is set.
public final class RowSpill: @unchecked Sendable {
    /// How many fields each record has.
    let fieldCount: Int
    private let descriptor: Int32
    /// Bytes written so far; the reader stops there. (Unchecked, as the writer's state is.)
    @exclusivity(unchecked) fileprivate(set) var size = 0
    /// Records written.
    @exclusivity(unchecked) fileprivate(set) var count = 0

    fileprivate static let absentLength: UInt8 = 255
    fileprivate static let longLength: UInt8 = 254
    fileprivate static let headerSize = 24

    /// Makes an empty spill in the temporary folder, for rows of the input at `path`.
    public init(fieldCount: Int, for path: String) throws(EngineError) {
        self.fieldCount = fieldCount
        descriptor = try TemporaryFiles.anonymousFile(purpose: "to keep mapped rows in", for: path)
    }

    deinit {
        close(descriptor)
    }

    fileprivate func write(_ bytes: UnsafeRawBufferPointer) throws(EngineError) {
        if let code = FileWriting.writeAll(bytes, to: descriptor, at: size) {
            throw .io(
                path: TemporaryFiles.directory,
                message: "cannot write a temporary file: \(String(cString: strerror(code)))")
        }
        size += bytes.count
    }

    /// Reads every record back, in the order written: `body` gets the row (its line plus
    /// `lineOffset`), its key and its version. The row is valid only during the call.
    public func read(
        lineOffset: Int = 0, _ body: (_ row: RawRow, _ key: Int, _ version: Int64) -> Void
    ) throws(EngineError) {
        var row = RawRow(fieldCount: fieldCount)
        defer { row.deallocate() }
        let lengthsEnd = Self.headerSize + fieldCount
        var buffer = [UInt8](repeating: 0, count: max(1 << 20, 2 * (lengthsEnd + 4)))
        var filled = 0
        var offset = 0
        while offset < size || filled > 0 {
            // Top the buffer up from the file.
            if offset < size, filled < buffer.count {
                let wanted = min(buffer.count - filled, size - offset)
                let got = buffer.withUnsafeMutableBytes { raw in
                    pread(descriptor, raw.baseAddress.map { $0 + filled }, wanted, off_t(offset))
                }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw .io(
                        path: TemporaryFiles.directory,
                        message: "cannot read a temporary file: \(String(cString: strerror(errno)))")
                }
                guard got > 0 else { throw .internal("a temporary file ended early") }
                filled += got
                offset += got
            }
            // Hand over every whole record in the buffer; keep a partial one for the next read.
            var position = 0
            var needed = 0
            buffer.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                while filled - position >= lengthsEnd {
                    let lengths = position + Self.headerSize
                    row.reset(line: 0, base: base)
                    var start = position + lengthsEnd
                    for field in 0..<fieldCount {
                        let length = base.load(fromByteOffset: lengths + field, as: UInt8.self)
                        guard length != Self.absentLength else { continue }
                        var count = Int(length)
                        if length == Self.longLength {
                            guard filled >= start + 4 else {
                                needed = start + 4 - position
                                return
                            }
                            count = Int(
                                UInt32(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
                            start += 4
                        }
                        row.set(field: field, column: 0, start: start, count: count)
                        start += count
                    }
                    guard filled >= start else {
                        needed = start - position
                        return
                    }
                    let line = Int64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: Int64.self))
                    let key = Int64(littleEndian: base.loadUnaligned(fromByteOffset: position + 8, as: Int64.self))
                    let version = Int64(
                        littleEndian: base.loadUnaligned(fromByteOffset: position + 16, as: Int64.self))
                    row.line = Int(line) + lineOffset
                    body(row, Int(key), version)
                    position = start
                }
            }
            if position > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    base.copyMemory(from: base + position, byteCount: filled - position)
                }
                filled -= position
            }
            if needed > buffer.count { buffer.append(contentsOf: repeatElement(0, count: needed - buffer.count)) }
            if offset >= size, filled > 0, position == 0 { throw .internal("a temporary file ends inside a record") }
        }
    }

    /// Writes records into a spill: one writer per spill, on one thread, each record's fields
    /// set in field order. A class, so that the buffer it fills byte by byte is freed with it.
    public final class Writer: FieldWriter {
        let spill: RowSpill
        /// Whole records not yet written to the file, then the record begun, laid out as it
        /// will be written.
        @exclusivity(unchecked) private var pending = GrowableBuffer<UInt8>(capacity: Writer.flushSize + (1 << 16))
        // Unchecked: one thread uses a writer, and a checked access on every field of every
        // row cost a tenth of an export's run.
        /// Where the record begun starts in `pending`.
        @exclusivity(unchecked) private var record = 0
        /// The field set last (-1: none yet), and where its bytes start in `pending`.
        @exclusivity(unchecked) private var last = -1
        @exclusivity(unchecked) private var lastStart = 0
        /// Whether a record is begun and not yet ended.
        @exclusivity(unchecked) private var isOpen = false
        private static let flushSize = 1 << 20

        public init(_ spill: RowSpill) {
            self.spill = spill
        }

        deinit {
            pending.deallocate()
        }

        /// Starts a record; every field is absent until set. A record begun and never ended
        /// is dropped, not left half in the file.
        public func begin(line: Int, key: Int, version: Int64) {
            if isOpen { pending.count = record }
            isOpen = true
            let fixed = RowSpill.headerSize + spill.fieldCount
            if pending.room < fixed { pending.grow(to: pending.count + fixed) }
            record = pending.count
            let start = UnsafeMutableRawPointer(pending.base + record)
            start.storeBytes(of: Int64(line).littleEndian, toByteOffset: 0, as: Int64.self)
            start.storeBytes(of: Int64(key).littleEndian, toByteOffset: 8, as: Int64.self)
            start.storeBytes(of: version.littleEndian, toByteOffset: 16, as: Int64.self)
            (start + RowSpill.headerSize).initializeMemory(
                as: UInt8.self, repeating: RowSpill.absentLength, count: spill.fieldCount)
            pending.count += fixed
            last = -1
        }

        public func set(_ field: Int, bytes: Span<UInt8>) {
            precondition(field > last && field < spill.fieldCount, "a record's fields are set once each, in order")
            closeLast()
            last = field
            lastStart = pending.count
            appendBytes(bytes)
        }

        public func append(_ field: Int, bytes: Span<UInt8>) {
            precondition(field == last, "only the field set last may be appended to")
            appendBytes(bytes)
        }

        private func appendBytes(_ bytes: Span<UInt8>) {
            bytes.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { pending.append(UnsafeRawPointer(base), count: buffer.count) }
            }
        }

        /// Writes the length of the field set last: in its byte, or, from `longLength` on, in
        /// four bytes moved in before the field's own.
        private func closeLast() {
            guard last >= 0 else { return }
            let count = pending.count - lastStart
            var length = UInt8(truncatingIfNeeded: count)
            if count >= Int(RowSpill.longLength) {
                length = RowSpill.longLength
                if pending.room < 4 { pending.grow(to: pending.count + 4) }
                let start = UnsafeMutableRawPointer(pending.base + lastStart)
                memmove(start + 4, start, count)
                start.storeBytes(of: UInt32(count).littleEndian, as: UInt32.self)
                pending.count += 4
            }
            pending[record + RowSpill.headerSize + last] = length
        }

        /// Ends the record begun last and queues it for the file.
        public func end() throws(EngineError) {
            precondition(isOpen, "a record is ended once, after it is begun")
            isOpen = false
            closeLast()
            last = -1
            spill.count += 1
            if pending.count >= Self.flushSize { try flush() }
        }

        /// Writes the queued records; call once the last record is ended (one begun and not
        /// ended is dropped).
        public func flush() throws(EngineError) {
            if isOpen {
                pending.count = record
                isOpen = false
            }
            guard pending.count > 0 else { return }
            try spill.write(UnsafeRawBufferPointer(start: pending.base, count: pending.count))
            pending.removeAll()
        }
    }
}
