/// A 64-bit hash that is the same on every run and machine, unlike Swift's seeded `Hasher`:
/// eight bytes at a time, multiply-rotate mixing, and a final avalanche.
struct StableHash {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    var value: UInt64 {
        var x = state
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    @inline(__always)
    mutating func combine(_ word: UInt64) {
        state = ((state ^ word) &* 0x0000_0100_0000_01b3).rotated(by: 29) &+ 0x2545_F491_4F6C_DD1D
    }

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else {
            combine(UInt64(0xFE))
            return
        }
        var offset = 0
        while offset + 8 <= bytes.count {
            combine(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        // The last 0–7 bytes in at most three loads (ids, codes and prices are mostly tail).
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        if bytes.count - offset >= 4 {
            tail = UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            shift = 32
            offset += 4
        }
        if bytes.count - offset >= 2 {
            tail |= UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) << shift
            shift += 16
            offset += 2
        }
        if offset < bytes.count {
            tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
        }
        // The length goes in too, so "ab" + "c" and "a" + "bc" differ.
        combine(tail ^ UInt64(bytes.count) << 56)
    }

    mutating func combine(_ text: String?) {
        guard var text else {
            combine(UInt64.max)
            return
        }
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    mutating func combine(_ instant: Instant?) {
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
