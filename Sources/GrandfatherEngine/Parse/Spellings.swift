/// A closed vocabulary's spellings as zero-padded words: four fields of every transaction row are
/// read against them, so a value is matched with two word comparisons per spelling rather
/// than byte by byte.
public struct Spellings<Value>: Sendable where Value: Sendable {
    fileprivate struct Spelling: Sendable {
        var count: Int
        var low: UInt64
        var high: UInt64
        var value: Value
    }

    fileprivate let all: [Spelling]
    /// Spellings are ASCII and at most 16 bytes (`init` checks).
    static var longest: Int { 16 }

    public init(_ values: [(String, Value)]) {
        all = values.map { text, value in
            precondition(text.utf8.count <= Self.longest && text.utf8.allSatisfy { $0 < 0x80 })
            let words = Array(text.utf8).withUnsafeBytes { Spellings.lowercasedWords($0) }
            return Spelling(count: text.utf8.count, low: words.low, high: words.high, value: value)
        }
    }

    /// The first and second eight bytes of `bytes` (at most 16, ASCII) with ASCII letters
    /// lower-cased, zero-padded.
    fileprivate static func lowercasedWords(_ bytes: UnsafeRawBufferPointer) -> (low: UInt64, high: UInt64) {
        let (low, high) = bytes.paddedWords
        return (lowercased(low), lowercased(high))
    }

    /// ASCII `A`–`Z` in a word of ASCII bytes made `a`–`z`: a byte gains 0x20 when adding 0x3F
    /// reaches 0x80 (it is `A` or more) and adding 0x25 does not (it is `Z` or less).
    @inline(__always)
    private static func lowercased(_ word: UInt64) -> UInt64 {
        let upper = (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
        return word | upper >> 2
    }

    /// The value spelled by `bytes`, case-insensitively; `nil` for anything else.
    public func value(_ bytes: UnsafeRawBufferPointer) -> Value? {
        guard bytes.count <= Self.longest else { return nil }
        let (rawLow, rawHigh) = bytes.paddedWords
        // A byte of 128 or more matches no spelling, and would carry through `lowercased`. (A NUL
        // byte cannot match either: no spelling holds one, and the lengths are compared.)
        guard (rawLow | rawHigh) & 0x8080_8080_8080_8080 == 0 else { return nil }
        let (low, high) = (Self.lowercased(rawLow), Self.lowercased(rawHigh))
        for spelling in all where spelling.count == bytes.count && spelling.low == low && spelling.high == high {
            return spelling.value
        }
        return nil
    }
}

@inline(__always)
public func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
}
