import Foundation

/// Rows a source has mapped, kept on disk between two passes: a RevenueCat export is parsed
/// once, each row laid out in the canonical fields and written here with its delivery key and
/// version, and read back once the run knows which deliveries are the latest. Parsing the
/// export a second time would cost as much again as the first (an export row is over twice a
/// canonical row's bytes); holding the rows in memory would cost about 100 bytes each.
///
/// The file is unlinked as soon as it is made, so nothing is left behind whatever ends the
/// run, and it lives in the page cache while it is small enough to.
///
/// A record: line, key and version (8 bytes each), one 4-byte length per field (`absent`
/// for none), then the fields' bytes in field order.
final class RowSpill: @unchecked Sendable {
    /// How many fields each record has.
    let fieldCount: Int
    private let descriptor: Int32
    /// Bytes written so far; the reader stops there.
    fileprivate(set) var size = 0
    /// Records written.
    fileprivate(set) var count = 0

    fileprivate static let absent = UInt32.max
    fileprivate static let headerSize = 24

    /// Makes an empty spill in the temporary folder, for rows of the input at `path`.
    init(fieldCount: Int, for path: String) throws(GrandfatherError) {
        self.fieldCount = fieldCount
        descriptor = try TemporaryFiles.anonymousFile(purpose: "to keep mapped rows in", for: path)
    }

    deinit {
        close(descriptor)
    }

    fileprivate func write(_ bytes: [UInt8]) throws(GrandfatherError) {
        if let code = bytes.withUnsafeBytes({ FileWriting.writeAll($0, to: descriptor, at: size) }) {
            throw .io(
                path: TemporaryFiles.directory,
                message: "cannot write a temporary file: \(String(cString: strerror(code)))")
        }
        size += bytes.count
    }

    /// Reads every record back, in the order written: `body` gets the row (its line plus
    /// `lineOffset`), its key and its version. The row is valid only during the call.
    func read(
        lineOffset: Int = 0, _ body: (_ row: RawRow, _ key: Int, _ version: Int64) -> Void
    ) throws(GrandfatherError) {
        var row = RawRow(fieldCount: fieldCount)
        defer { row.deallocate() }
        let fixed = Self.headerSize + 4 * fieldCount
        var buffer = [UInt8](repeating: 0, count: max(1 << 20, 2 * fixed))
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
                while filled - position >= fixed {
                    let line = base.loadUnaligned(fromByteOffset: position, as: Int64.self)
                    let key = base.loadUnaligned(fromByteOffset: position + 8, as: Int64.self)
                    let version = base.loadUnaligned(fromByteOffset: position + 16, as: Int64.self)
                    var bodySize = 0
                    for field in 0..<fieldCount {
                        let length = base.loadUnaligned(
                            fromByteOffset: position + Self.headerSize + 4 * field, as: UInt32.self)
                        if length != Self.absent { bodySize += Int(length) }
                    }
                    guard filled - position >= fixed + bodySize else {
                        needed = fixed + bodySize
                        return
                    }
                    row.reset(line: Int(line) + lineOffset, base: base)
                    var start = position + fixed
                    for field in 0..<fieldCount {
                        let length = base.loadUnaligned(
                            fromByteOffset: position + Self.headerSize + 4 * field, as: UInt32.self)
                        guard length != Self.absent else { continue }
                        row.set(field: field, column: 0, start: start, count: Int(length))
                        start += Int(length)
                    }
                    body(row, Int(key), version)
                    position += fixed + bodySize
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

    /// Writes records into a spill: one writer per spill, on one thread.
    struct Writer: FieldWriter {
        let spill: RowSpill
        private var body: [UInt8] = []
        private var starts: [Int]
        private var counts: [Int]
        private var last = -1
        private var line = 0
        private var key = 0
        private var version: Int64 = 0
        private var pending: [UInt8] = []
        private static let flushSize = 1 << 20

        init(_ spill: RowSpill) {
            self.spill = spill
            starts = Array(repeating: 0, count: spill.fieldCount)
            counts = Array(repeating: -1, count: spill.fieldCount)
            body.reserveCapacity(1024)
            pending.reserveCapacity(Self.flushSize + (1 << 16))
        }

        /// Starts a record; every field is absent until set.
        mutating func begin(line: Int, key: Int, version: Int64) {
            self.line = line
            self.key = key
            self.version = version
            body.removeAll(keepingCapacity: true)
            for field in 0..<counts.count { counts[field] = -1 }
            last = -1
        }

        mutating func set(_ field: Int, bytes: Span<UInt8>) {
            starts[field] = body.count
            counts[field] = bytes.count
            last = field
            bytes.withUnsafeBufferPointer { body.append(contentsOf: $0) }
        }

        mutating func set(_ field: Int, ascii: StaticString) {
            starts[field] = body.count
            counts[field] = ascii.utf8CodeUnitCount
            last = field
            ascii.withUTF8Buffer { body.append(contentsOf: $0) }
        }

        /// An instant of whole milliseconds (every export time) as epoch milliseconds, which the
        /// normalizer reads with a digit loop rather than a calendar; any other in ISO-8601.
        mutating func set(_ field: Int, instant: Instant) {
            starts[field] = body.count
            last = field
            let before = body.count
            if instant.microseconds % 1000 == 0 {
                appendDecimal(instant.microseconds / 1000)
                counts[field] = body.count - before
                return
            }
            body.append(contentsOf: repeatElement(0, count: Instant.maximumISO8601Length))
            let written = body.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.flatMap { instant.writeISO8601(into: $0 + before) }
            }
            if let written {
                body.removeLast(Instant.maximumISO8601Length - written)
            } else {
                body.removeLast(Instant.maximumISO8601Length)
                body.append(contentsOf: instant.iso8601.utf8)
            }
            counts[field] = body.count - before
        }

        /// Appends `value` in decimal digits, with a sign when negative.
        private mutating func appendDecimal(_ value: Int64) {
            if value < 0 { body.append(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[31 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                } while magnitude > 0
                body.append(contentsOf: buffer[(32 - count)...])
            }
        }

        mutating func append(_ field: Int, bytes: Span<UInt8>) {
            precondition(field == last, "only the field set last may be appended to")
            bytes.withUnsafeBufferPointer { body.append(contentsOf: $0) }
            counts[field] += bytes.count
        }

        /// Ends the record begun last and queues it for the file.
        mutating func end() throws(GrandfatherError) {
            withUnsafeBytes(of: Int64(line).littleEndian) { pending.append(contentsOf: $0) }
            withUnsafeBytes(of: Int64(key).littleEndian) { pending.append(contentsOf: $0) }
            withUnsafeBytes(of: version.littleEndian) { pending.append(contentsOf: $0) }
            for field in 0..<counts.count {
                let length = counts[field] < 0 ? RowSpill.absent : UInt32(counts[field])
                withUnsafeBytes(of: length.littleEndian) { pending.append(contentsOf: $0) }
            }
            for field in 0..<counts.count where counts[field] > 0 {
                pending.append(contentsOf: body[starts[field]..<starts[field] + counts[field]])
            }
            spill.count += 1
            if pending.count >= Self.flushSize { try flush() }
        }

        /// Writes the queued records; call once the last record is ended.
        mutating func flush() throws(GrandfatherError) {
            guard !pending.isEmpty else { return }
            try spill.write(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }
}
