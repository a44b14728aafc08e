import Foundation

/// Word-at-a-time ASCII checks for the byte-level readers and writers.
public enum ASCII {
    /// Whether any of the eight bytes of `word` is `byte` (the classic zero-byte test on
    /// `word ^ pattern`, exact as a yes or no).
    @inline(__always)
    static func word(_ word: UInt64, holds byte: UInt8) -> Bool {
        let pattern = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (pattern &- 0x0101_0101_0101_0101) & ~pattern & 0x8080_8080_8080_8080 != 0
    }

    /// How many LFs `bytes` holds, found with `memchr`: a record's line is hundreds of bytes,
    /// and looked at one byte at a time they cost a tenth of what parsing them does.
    public static func lineFeeds(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var from = 0
        while from < bytes.count, let feed = memchr(base + from, 0x0A, bytes.count - from) {
            count += 1
            from = base.distance(to: feed) + 1
        }
        return count
    }

    /// `lineFeeds(in:)` of an array's slice.
    public static func lineFeeds(in bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBytes(lineFeeds)
    }

    /// Whether every byte is printable ASCII (a space up to `~`, 32…126): text that holds
    /// nothing `TextBytes` refuses. Asked of every field of every row, so read eight bytes at a
    /// time, the last eight overlapping what was read before rather than one by one.
    public static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        guard count >= 8 else {
            for offset in 0..<count {
                let byte = base.load(fromByteOffset: offset, as: UInt8.self)
                if byte < 0x20 || byte >= 0x7F { return false }
            }
            return true
        }
        var offset = 0
        while offset < count - 8 {
            if !isPlain(word: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
            offset += 8
        }
        return isPlain(word: base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// Whether each of the eight bytes of `word` is printable ASCII, in one test: a high bit,
    /// a byte below 32 (which stays below 128 when 96 is added) or 127 (the only one to reach
    /// 128 when 1 is). With no high bit no sum carries into the next byte; with one, the word
    /// is refused whatever the sums give.
    @inline(__always)
    static func isPlain(word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        return (word | (word &+ ones) | ~(word &+ 0x60 &* ones)) & 0x8080_8080_8080_8080 == 0
    }
}
