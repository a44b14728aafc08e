/// A set of flags in one word, iterated in code order (SPEC §8.25): what each customer's
/// verdict carries instead of an array.
public struct FlagSet: Sequence, Sendable, Hashable {
    public private(set) var rawValue: UInt32 = 0

    /// The empty set.
    public init() {}

    /// The set holding one flag.
    public init(_ flag: Flag) {
        rawValue = 1 << flag.ordinal
    }

    public mutating func formUnion(_ other: FlagSet) {
        rawValue |= other.rawValue
    }

    public mutating func insert(_ flag: Flag) {
        rawValue |= 1 << flag.ordinal
    }

    public func contains(_ flag: Flag) -> Bool {
        rawValue & 1 << flag.ordinal != 0
    }

    public var isEmpty: Bool { rawValue == 0 }

    /// Whether the two sets share a flag.
    public func intersects(_ other: FlagSet) -> Bool { rawValue & other.rawValue != 0 }

    /// Every flag of the catalog's `severity`.
    public static func severity(_ severity: Flag.Severity) -> FlagSet {
        var set = FlagSet()
        for flag in Flag.allCases where flag.severity == severity { set.insert(flag) }
        return set
    }

    public func makeIterator() -> AnyIterator<Flag> {
        var remaining = Flag.inCodeOrder[...]
        let bits = rawValue
        return AnyIterator {
            while let flag = remaining.popFirst() {
                if bits & 1 << flag.ordinal != 0 { return flag }
            }
            return nil
        }
    }

    /// Calls `body` for each flag in code order, without an iterator.
    public func forEach(_ body: (Flag) throws -> Void) rethrows {
        for flag in Flag.inCodeOrder where contains(flag) { try body(flag) }
    }
}

extension Flag {
    /// Every flag sorted by code, the order outputs use.
    static let inCodeOrder: [Flag] = allCases.sorted()

    /// The flag's position in the catalog: its bit in a `FlagSet`.
    var ordinal: UInt32 {
        switch self {
        case .boughtJustBeforeCutover: return 0
        case .boughtJustAfterCutover: return 1
        case .versionDateDisagree: return 2
        case .naiveVersionTrap: return 3
        case .missingOriginalVersion: return 4
        case .unparseableVersion: return 5
        case .noCutoverForPlatform: return 6
        case .preordered: return 7
        case .grandfatheredAndSubscribed: return 8
        case .billingRetry: return 9
        case .inGracePeriod: return 10
        case .familySharedOnly: return 11
        case .refunded: return 12
        case .consumableOnly: return 13
        case .orphanTransactions: return 14
        case .sandbox: return 15
        case .conflictingDuplicate: return 16
        case .impossibleDates: return 17
        case .unlinkedTransactions: return 18
        case .conflictingCustomerFacts: return 19
        case .grandfatheredNotGranted: return 20
        case .grantedNotEntitled: return 21
        case .orderNotFound: return 22
        case .orderRefunded: return 23
        case .orderClaimedTwice: return 24
        case .licensedOnlyAfterCutover: return 25
        }
    }
}
