import GrandfatherEngine

/// A customer (app user) as read from a customers input, or made up for an orphan.
public struct Customer: Sendable, Equatable {
    // Stored widest first: Swift lays fields out in declaration order, and a run holds a
    // million of these.

    /// Stable id, as given.
    public var id: String
    /// `originalAppVersion` of the app transaction, as given (not trimmed).
    public var originalAppVersion: String?
    /// Country or storefront code.
    public var storefront: String?
    /// When the app was first purchased or downloaded.
    public var originalPurchaseDate: Instant? {
        get { Self.instant(originalPurchase) }
        set { originalPurchase = Self.microseconds(newValue) }
    }
    /// Set when the app was pre-ordered.
    public var preorderDate: Instant? {
        get { Self.instant(preorder) }
        set { preorder = Self.microseconds(newValue) }
    }
    // The two instants as microseconds, `Int64.min` for none (no timestamp reads as that):
    // an `Instant?` takes 16 bytes with its flag, and these two made a customer 80 bytes
    // rather than 72, 8 MB per million customers.
    private var originalPurchase: Int64
    private var preorder: Int64
    /// `nil` only for an orphan customer, whose platform is unknown (SPEC §8.14).
    public var platform: Platform?
    /// `sandbox` customers are excluded from the four classes.
    public var environment: Environment
    /// What the ingest learnt of the customer besides its facts, one bit each: a byte where
    /// two `Bool`s were, so the record stays 72 bytes.
    private var marks: Marks = []
    /// Whether this customer was created from transactions alone.
    public var isOrphan: Bool {
        get { marks.contains(.orphan) }
        set { marks.set(.orphan, newValue) }
    }
    /// Whether it stands for an App Store subscription that no customer identity reached.
    public var isUnlinked: Bool {
        get { marks.contains(.unlinked) }
        set { marks.set(.unlinked, newValue) }
    }
    /// What became of the store orders the customer claims (`ClaimedOrderRules`).
    public var orderClaims: OrderClaims {
        get { OrderClaims(rawValue: marks.rawValue >> 2) }
        set { marks = Marks(rawValue: marks.rawValue & ~(0b111 << 2) | newValue.rawValue << 2) }
    }
    /// Whether Google Play licensing said the app was licensed to the customer only at or
    /// after the cutover (`LicensingRules`): no evidence, and said so.
    public var isLicensedOnlyAfterCutover: Bool {
        get { marks.contains(.licensedOnlyAfterCutover) }
        set { marks.set(.licensedOnlyAfterCutover, newValue) }
    }
    /// Which source gave each fact (SPEC §9); empty for an orphan.
    public var provenance = CustomerProvenance()

    /// Creates a customer.
    public init(
        id: String, platform: Platform?, originalAppVersion: String? = nil, originalPurchaseDate: Instant? = nil,
        environment: Environment = .production, preorderDate: Instant? = nil, storefront: String? = nil,
        isOrphan: Bool = false
    ) {
        self.id = id
        self.platform = platform
        self.originalAppVersion = originalAppVersion
        self.originalPurchase = Self.microseconds(originalPurchaseDate)
        self.environment = environment
        self.preorder = Self.microseconds(preorderDate)
        self.storefront = storefront
        self.isOrphan = isOrphan
    }

    private struct Marks: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let orphan = Marks(rawValue: 1)
        static let unlinked = Marks(rawValue: 2)
        // Bits 2–4: `OrderClaims`.
        static let licensedOnlyAfterCutover = Marks(rawValue: 1 << 5)

        mutating func set(_ mark: Marks, _ on: Bool) {
            if on { insert(mark) } else { remove(mark) }
        }
    }

    private static func microseconds(_ instant: Instant?) -> Int64 {
        instant?.microseconds ?? .min
    }

    private static func instant(_ microseconds: Int64) -> Instant? {
        microseconds == .min ? nil : Instant(microseconds: microseconds)
    }

    /// The facts this record has: every fact it holds a value for, and its environment.
    public var presentFacts: [CustomerFact] {
        CustomerFact.allCases.filter { fact in
            switch fact {
            case .platform: return platform != nil
            case .originalAppVersion: return originalAppVersion != nil
            case .originalPurchaseDate: return originalPurchase != .min
            case .environment: return true
            case .preorderDate: return preorder != .min
            case .storefront: return storefront != nil
            }
        }
    }

    /// This record as read from `source`, which gave each fact it holds (`facts`, when the
    /// source gives only some: a roster says nothing of the environment, whose default the
    /// record still holds).
    public func read(from source: CustomerSource, facts: [CustomerFact]? = nil) -> Customer {
        var customer = self
        let given = facts.map { only in presentFacts.filter(only.contains) } ?? presentFacts
        customer.provenance = CustomerProvenance(source: source, facts: given)
        return customer
    }

    /// The customer SPEC §8.14 makes for transactions whose owner is not in the customers input.
    public static func orphan(id: String) -> Customer {
        Customer(id: id, platform: nil, isOrphan: true)
    }
}

/// What became of the store orders a customer claims, against the stores' reports
/// (`ClaimedOrderRules`): each outcome that is not evidence raises its flag.
public struct OrderClaims: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0b111 }

    /// A claimed order that no report given lists for the paid app (`order_not_found`).
    public static let notFound = OrderClaims(rawValue: 1)
    /// A claimed order the reports show refunded (`order_refunded`).
    public static let refunded = OrderClaims(rawValue: 2)
    /// A claimed order another customer claims too (`order_claimed_twice`).
    public static let claimedTwice = OrderClaims(rawValue: 4)
}
