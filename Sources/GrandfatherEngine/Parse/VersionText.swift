/// Dotted version text compared component by component as integers, on bytes: a caller
/// compares millions of versions with one, on every core, so nothing is built and nothing is
/// retained.
public enum VersionText {
    /// Compares version text with the text of a valid version (digits between single dots):
    /// `nil` when `bytes` is no such text, else whether it is lower (components as integers,
    /// leading zeros ignored, a missing component 0) and whether plain byte order says it is
    /// lower. `other` is walked component by component beside the text.
    public static func compare(
        _ bytes: UnsafeBufferPointer<UInt8>, withVersion other: UnsafeBufferPointer<UInt8>
    ) -> (lower: Bool, naivelyLower: Bool)? {
        let dot = UInt8(ascii: ".")
        var start = 0
        /// Where the other version's next component starts; past its end once it has none.
        var otherStart = 0
        var order = 0  // -1 lower, 1 higher, 0 equal so far
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == dot {
                guard index > start else { return nil }
                var theirsStart = min(otherStart, other.count)
                var theirsEnd = theirsStart
                while theirsEnd < other.count, other[theirsEnd] != dot { theirsEnd += 1 }
                otherStart = theirsEnd + 1
                if order == 0 {
                    // Components compare without their leading zeros: by length, then digits.
                    var first = start
                    while first < index, bytes[first] == 0x30 { first += 1 }
                    while theirsStart < theirsEnd, other[theirsStart] == 0x30 { theirsStart += 1 }
                    let mine = UnsafeBufferPointer(rebasing: bytes[first..<index])
                    let theirs = UnsafeBufferPointer(rebasing: other[theirsStart..<theirsEnd])
                    if mine.count != theirs.count {
                        order = mine.count < theirs.count ? -1 : 1
                    } else if !mine.elementsEqual(theirs) {
                        order = mine.lexicographicallyPrecedes(theirs) ? -1 : 1
                    }
                }
                start = index + 1
            } else if bytes[index] &- 0x30 > 9 {
                return nil
            }
            index += 1
        }
        if order == 0 {
            // Remaining components of the other version: any non-zero digit makes the text lower.
            var rest = otherStart
            while rest < other.count {
                if other[rest] != dot, other[rest] != 0x30 {
                    order = -1
                    break
                }
                rest += 1
            }
        }
        return (order < 0, bytes.lexicographicallyPrecedes(other))
    }
}
