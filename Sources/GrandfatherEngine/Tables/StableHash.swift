/// A 64-bit hash that is the same on every run and machine, unlike Swift's seeded `Hasher`:
/// eight bytes at a time, multiply-rotate mixing, and a final avalanche.
public struct StableHash {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    public init() {}

    public var value: UInt64 {
        var x = state
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    @inline(__always)
    public mutating func combine(_ word: UInt64) {
        state = ((state ^ word) &* 0x0000_0100_0000_01b3).rotated(by: 29) &+ 0x2545_F491_4F6C_DD1D
    }

    /// The hash of `bytes` alone: how a source outside the engine keys a table by a text it
    /// has not made a string of.
    @inline(__always)
    public static func of(_ bytes: Span<UInt8>) -> UInt64 {
        var hash = StableHash()
        bytes.withUnsafeBytes { hash.combine($0) }
        return hash.value
    }

    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else {
            combine(UInt64(0xFE))
            return
        }
        var offset = 0
        while offset + 8 <= bytes.count {
            combine(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        // The last 0–7 bytes (ids, codes and prices are mostly tail).
        let tail = base.loadPadded(fromByteOffset: offset, count: bytes.count - offset)
        // The length goes in too, so "ab" + "c" and "a" + "bc" differ.
        combine(tail ^ UInt64(bytes.count) << 56)
    }

    public mutating func combine(_ text: String?) {
        guard var text else {
            combine(UInt64.max)
            return
        }
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ instant: Instant?) {
        guard let instant else {
            combine(UInt64.max - 1)
            return
        }
        combine(UInt64(bitPattern: instant.microseconds))
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotated(by amount: UInt64) -> UInt64 {
        self << amount | self >> (64 - amount)
    }
}

extension UnsafeRawPointer {
    /// `count` (0–8) bytes from `offset` as a little-endian word, zero-padded, in at most
    /// three loads and no byte beyond them. Built in registers: copying the bytes into a
    /// word on the stack and reading it back stalls on the store forwarding.
    @inline(__always)
    func loadPadded(fromByteOffset offset: Int, count: Int) -> UInt64 {
        if count >= 8 { return loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        var word: UInt64 = 0
        var shift: UInt64 = 0
        var offset = offset
        var count = count
        if count >= 4 {
            word = UInt64(loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            shift = 32
            offset += 4
            count -= 4
        }
        if count >= 2 {
            word |= UInt64(loadUnaligned(fromByteOffset: offset, as: UInt16.self)) << shift
            shift += 16
            offset += 2
            count -= 2
        }
        if count > 0 {
            word |= UInt64(load(fromByteOffset: offset, as: UInt8.self)) << shift
        }
        return word
    }
}

extension UnsafeRawBufferPointer {
    /// The first and second eight bytes, zero-padded when there are fewer than 16
    /// (`loadPadded`, which reads at most eight): how short ids, spellings and compact texts
    /// are held as words.
    @inline(__always)
    var paddedWords: (low: UInt64, high: UInt64) {
        guard let base = baseAddress else { return (0, 0) }
        if count <= 8 { return (base.loadPadded(fromByteOffset: 0, count: count), 0) }
        return (
            base.loadUnaligned(fromByteOffset: 0, as: UInt64.self), base.loadPadded(fromByteOffset: 8, count: count - 8)
        )
    }
}
