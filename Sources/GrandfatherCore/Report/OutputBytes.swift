/// Bytes of a report, appended in place: a table of a million rows appends ten million cells,
/// and `[UInt8].append(contentsOf:)` costs a call to `memmove` and a uniqueness check each.
///
/// One writer owns it, so the run-time exclusivity checks on its buffer, one per append, are
/// left out.
final class OutputBytes {
    @exclusivity(unchecked) private var buffer: GrowableBuffer<UInt8>

    init(capacity: Int) {
        buffer = GrowableBuffer(capacity: max(capacity, 64))
    }

    deinit {
        buffer.deallocate()
    }

    var count: Int { buffer.count }

    func append(_ byte: UInt8) {
        buffer.append(byte)
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        buffer.append(base, count: bytes.count)
    }

    /// Calls `body` with the bytes so far, valid only during the call.
    func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count))
    }

    /// A copy of the bytes, for small reports and tests.
    var array: [UInt8] {
        withBytes { Array($0) }
    }
}
