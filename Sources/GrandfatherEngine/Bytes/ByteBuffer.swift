/// Bytes appended in place, for what appends tens of millions of short values (a parsed
/// batch's fields, a report's cells): `[UInt8].append(contentsOf:)` costs a call to `memmove`
/// and a uniqueness check each.
///
/// One owner writes it, so the run-time exclusivity checks on its buffer, one per append,
/// are left out.
public final class ByteBuffer {
    @exclusivity(unchecked) private var buffer: GrowableBuffer<UInt8>

    /// A buffer whose bytes begin at an address that is a multiple of `alignment`.
    public init(capacity: Int, alignment: Int = 1) {
        buffer = GrowableBuffer(capacity: max(capacity, 64), alignment: alignment)
    }

    deinit {
        buffer.deallocate()
    }

    public var count: Int { buffer.count }

    public func append(_ byte: UInt8) {
        buffer.append(byte)
    }

    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        buffer.append(base, count: bytes.count)
    }

    /// The bytes so far, valid until the next change.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer.base, count: buffer.count) }

    /// Drops the bytes after the first `count`.
    public func truncate(to count: Int) {
        buffer.count = min(count, buffer.count)
    }

    /// Lets `write` lay up to `maximum` bytes at the end, in place, and keeps the number it
    /// returns: a value formatted straight into the buffer, with no copy on the way.
    func appendInPlace(maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        if buffer.room < maximum { buffer.grow(to: buffer.count + maximum) }
        buffer.count += write(buffer.base + buffer.count)
    }

    /// Drops the first `count` bytes, moving the rest to the start.
    func removeFirst(_ count: Int) {
        let kept = buffer.count - min(count, buffer.count)
        if kept > 0 {
            UnsafeMutableRawPointer(buffer.base).copyMemory(from: buffer.base + (buffer.count - kept), byteCount: kept)
        }
        buffer.count = kept
    }

    /// Upper-cases the ASCII letters in `range`.
    public func uppercaseASCII(_ range: Range<Int>) {
        for index in range where buffer[index] &- 0x61 < 26 { buffer[index] -= 0x20 }
    }

    /// Calls `body` with the bytes so far, valid only during the call.
    public func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count))
    }

    /// A copy of the bytes, for small reports and tests.
    public var array: [UInt8] {
        withBytes { Array($0) }
    }
}
