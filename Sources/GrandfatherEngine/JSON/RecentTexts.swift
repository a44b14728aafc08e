import Foundation

/// The ASCII texts of 16 to 64 bytes a parser read lately, by a hash of their bytes: keys,
/// states and dates that a file of records repeats on every line. A text read again is the
/// string read before, retained, where a new one would be an allocation (Swift keeps texts of
/// up to 15 bytes inline, so shorter ones cost none). Each slot holds the latest text whose
/// bytes hash to it, so a file of ever-new texts costs a hash and a compare each, no more.
struct RecentTexts {
    private var slots: [String?]

    private static let slotCount = 256
    static let kept = 16...64

    init() {
        slots = Array(repeating: nil, count: Self.slotCount)
    }

    /// The text of `raw` (ASCII, of a length in `kept`): the one held when it has these bytes.
    mutating func text(_ raw: UnsafeRawBufferPointer) -> String {
        // FNV-1a: a few cycles a byte, and these are short.
        var hash: UInt32 = 2_166_136_261
        for byte in raw { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let slot = Int(hash % UInt32(Self.slotCount))
        if var held = slots[slot], held.utf8.count == raw.count {
            let same = held.withUTF8 { stored in
                guard let stored = stored.baseAddress, let given = raw.baseAddress else { return false }
                return memcmp(stored, given, raw.count) == 0
            }
            if same { return held }
        }
        let text = String(decoding: raw, as: UTF8.self)
        slots[slot] = text
        return text
    }
}
