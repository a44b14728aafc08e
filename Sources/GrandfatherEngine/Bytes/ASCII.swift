/// Word-at-a-time ASCII checks for the byte-level readers and writers.
public enum ASCII {
    /// Whether any of the eight bytes of `word` is `byte` (the classic zero-byte test on
    /// `word ^ pattern`, exact as a yes or no).
    @inline(__always)
    static func word(_ word: UInt64, holds byte: UInt8) -> Bool {
        let pattern = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (pattern &- 0x0101_0101_0101_0101) & ~pattern & 0x8080_8080_8080_8080 != 0
    }

    /// Whether every byte is ASCII other than NUL (1…127): text that needs no further check.
    public static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // A byte of 0 borrows into its high bit; a byte of 128 or more has it set already.
            if (word | (word &- 0x0101_0101_0101_0101)) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            if byte == 0 || byte & 0x80 != 0 { return false }
            offset += 1
        }
        return true
    }
}
