/// The closed vocabularies of SPEC §2, with the spec's strings as raw values.

/// The platform a customer's app transaction comes from.
public enum Platform: String, CaseIterable, Sendable, Codable {
    case ios, ipados, macos, tvos, watchos, visionos

    /// The platform's position in `allCases`, for tables indexed by platform (`allCases`
    /// itself would be built on every call).
    var index: Int {
        switch self {
        case .ios: return 0
        case .ipados: return 1
        case .macos: return 2
        case .tvos: return 3
        case .watchos: return 4
        case .visionos: return 5
        }
    }
}

/// Where a record comes from; `xcode` is read as `sandbox` (SPEC §8.4).
public enum Environment: String, CaseIterable, Sendable, Codable {
    case production, sandbox
}

/// The kind of an in-app product.
public enum ProductType: String, CaseIterable, Sendable, Codable {
    case autoRenewable = "auto_renewable"
    case nonRenewing = "non_renewing"
    case nonConsumable = "non_consumable"
    case consumable

    /// Whether the product can make a customer lapsed or refunded (every type but consumable).
    public var isDurable: Bool { self != .consumable }

    /// A small stable number for fingerprints.
    var code: UInt8 {
        switch self {
        case .autoRenewable: return 0
        case .nonRenewing: return 1
        case .nonConsumable: return 2
        case .consumable: return 3
        }
    }
}

/// Whether the customer bought a transaction or has it through Family Sharing.
public enum OwnershipType: String, CaseIterable, Sendable, Codable {
    case purchased
    case familyShared = "family_shared"
}

/// The renewal state an export reports for an auto-renewable subscription.
public enum RenewalState: String, CaseIterable, Sendable, Codable {
    case subscribed, expired, revoked
    case inBillingRetry = "in_billing_retry"
    case inGracePeriod = "in_grace_period"

    /// A small stable number for fingerprints.
    var code: UInt64 {
        switch self {
        case .subscribed: return 0
        case .expired: return 1
        case .revoked: return 2
        case .inBillingRetry: return 3
        case .inGracePeriod: return 4
        }
    }
}

/// The class a customer falls in (SPEC §4).
public enum CustomerClass: String, CaseIterable, Sendable, Codable, Comparable {
    case grandfathered, subscriber, lapsed, new, excluded

    public static func < (lhs: CustomerClass, rhs: CustomerClass) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// Why a customer holds an entitlement (SPEC §8.13).
public enum EntitlementSource: String, CaseIterable, Sendable, Codable, BitwiseCopyable {
    case grandfathered, purchase
    case familyShared = "family_shared"
    case gracePeriod = "grace_period"
}

/// Which evidence decides "bought before the cutover" (SPEC §3).
public enum CutoverBasis: String, CaseIterable, Sendable, Codable {
    case version, date, either, both
}

/// A closed vocabulary read from bytes case-insensitively (SPEC §8.4).
protocol Vocabulary: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// Each value's spelling, built once (`allCases` would allocate on every call).
    static var spellings: Spellings<Self> { get }
}

/// A vocabulary's spellings as zero-padded words: four fields of every transaction row are
/// read against them, so a value is matched with two word comparisons per spelling rather
/// than byte by byte.
struct Spellings<Value>: Sendable where Value: Sendable {
    fileprivate struct Spelling: Sendable {
        var count: Int
        var low: UInt64
        var high: UInt64
        var value: Value
    }

    fileprivate let all: [Spelling]
    /// Spellings are ASCII and at most 16 bytes (`init` checks).
    static var longest: Int { 16 }

    init(_ values: [(String, Value)]) {
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
    func value(_ bytes: UnsafeRawBufferPointer) -> Value? {
        guard bytes.count <= Self.longest, ASCII.isPlain(bytes) else { return nil }
        let (low, high) = Self.lowercasedWords(bytes)
        for spelling in all where spelling.count == bytes.count && spelling.low == low && spelling.high == high {
            return spelling.value
        }
        return nil
    }
}

extension Vocabulary {
    static func makeSpellings() -> Spellings<Self> {
        Spellings(allCases.map { ($0.rawValue, $0) })
    }

    /// Reads a value case-insensitively from raw bytes (ASCII case folding; every
    /// vocabulary here is ASCII, so other bytes can never match).
    static func parse(caseInsensitive bytes: UnsafeRawBufferPointer) -> Self? {
        spellings.value(bytes)
    }
}

extension Platform: Vocabulary { static let spellings = makeSpellings() }
extension Environment: Vocabulary { static let spellings = makeSpellings() }
extension ProductType: Vocabulary { static let spellings = makeSpellings() }
extension OwnershipType: Vocabulary { static let spellings = makeSpellings() }
extension RenewalState: Vocabulary { static let spellings = makeSpellings() }

@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
}
