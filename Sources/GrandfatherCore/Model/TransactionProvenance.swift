/// The shapes a transaction's record arrives in, each a row of the table of what it can
/// state (`facts`, printed in the docs/RevenueCat.md's "What each shape carries").
public enum TransactionShape: UInt8, CaseIterable, Sendable {
    /// A canonical CSV or JSON row (SPEC §2): every fact, as the team wrote it.
    case canonical = 1
    /// An App Store transaction: a signed or decoded payload, a notification's, a receipt's row.
    case appStore
    /// A row of RevenueCat's Scheduled Data Export.
    case revenueCatExport
    /// A member of a RevenueCat subscriber response's `subscriptions`.
    case subscriberSubscription
    /// An item of a RevenueCat subscriber response's `non_subscriptions`.
    case subscriberItem
    /// A row of a `normalize` folder's transactions table, read back.
    case normalizedFolder
    /// A Google Play subscription purchase: a `subscriptionsv2` response, with what the run's
    /// notifications and voided purchases say of its token.
    case playSubscription

    /// As reports and `explain` name it.
    public var code: String {
        switch self {
        case .canonical: return "canonical"
        case .appStore: return "app_store"
        case .revenueCatExport: return "revenuecat_export"
        case .subscriberSubscription: return "revenuecat_subscription"
        case .subscriberItem: return "revenuecat_non_subscription"
        case .normalizedFolder: return "normalized_folder"
        case .playSubscription: return "play_subscription"
        }
    }

    /// The source of the record a customer known only from rows of this shape is made from
    /// (SPEC §9, a store's platform): Google's own, for a Play subscription; else an export
    /// row's, the weakest.
    var storeRecordSource: CustomerSource { self == .playSubscription ? .playSubscription : .exportRow }

    /// The facts a record of this shape states: a fact missing from the list is one the
    /// shape has no place for, so a delivery in it says nothing of that fact (an absent value
    /// in a fact it does state says "none": no refund, no expiry).
    ///
    /// A response's `non_subscriptions` item gives only `id`, `purchase_date`, `store`,
    /// `is_sandbox`, `store_transaction_id` and `price` (FORMATS.md §b); a subscription adds
    /// its expiry, refund, ownership, grace and billing issue, but never the original
    /// transaction id. A canonical row names no store, and the App Store is one; a
    /// `normalize` folder keeps a grant's promotional mark.
    public var facts: [TransactionFact] {
        switch self {
        case .normalizedFolder, .revenueCatExport, .playSubscription:
            return TransactionFact.allCases
        case .canonical, .appStore:
            return TransactionFact.allCases.filter { $0 != .store }
        case .subscriberSubscription:
            return [
                .purchaseDate, .expiresDate, .revocationDate, .ownership, .environment, .price, .currency,
                .renewalState, .gracePeriodExpiresDate, .store,
            ]
        case .subscriberItem:
            return [.purchaseDate, .environment, .price, .currency, .store]
        }
    }

    /// Whether a record of this shape makes its customer one the source knows, never an
    /// orphan, even where its store gives no platform (a RevenueCat row: SPEC §9).
    var namesItsCustomer: Bool {
        switch self {
        case .revenueCatExport, .subscriberSubscription, .subscriberItem, .playSubscription: return true
        case .canonical, .appStore, .normalizedFolder: return false
        }
    }
}

/// A fact of a transaction one delivery may state and another not (its ids and product are
/// what make it that transaction, so every delivery states them).
public enum TransactionFact: Int, CaseIterable, Sendable {
    case originalTransactionID
    case purchaseDate
    case expiresDate
    case revocationDate
    case ownership
    case environment
    case price
    case currency
    case renewalState
    case gracePeriodExpiresDate
    /// The store it was bought in, and so its platform and whether it is a promotional grant.
    case store

    /// As the canonical field (or, for the store, the export's column) names it.
    public var name: String {
        switch self {
        case .originalTransactionID: return "original_transaction_id"
        case .purchaseDate: return "purchase_date"
        case .expiresDate: return "expires_date"
        case .revocationDate: return "revocation_date"
        case .ownership: return "ownership_type"
        case .environment: return "environment"
        case .price: return "price"
        case .currency: return "currency"
        case .renewalState: return "renewal_state"
        case .gracePeriodExpiresDate: return "grace_period_expires_date"
        case .store: return "store"
        }
    }
}

/// Which shape a transaction's record came in, which shape stated each of its facts (one
/// shape for a record read once, several for deliveries merged field by field), and what its
/// product type rests on: what `grandfather explain` names for each deciding transaction.
public struct TransactionProvenance: Sendable, Hashable {
    /// 4 bits per fact, the raw value of the shape that stated it (0: none); the product
    /// type's source in bits 44–47 (its raw value + 1; 0: not known); the record's own shape
    /// in the top 4 bits.
    private(set) var bits: UInt64

    /// A record of `shape` that states every fact the shape can.
    public init(shape: TransactionShape) {
        // Made once per shape: canonical rows take this on every row.
        bits = Self.whole[Int(shape.rawValue)]
    }

    /// Each shape's record stating every fact it can, by raw value.
    private static let whole: [UInt64] = (0...TransactionShape.allCases.count).map { raw in
        guard let shape = TransactionShape(rawValue: UInt8(raw)) else { return 0 }
        return TransactionProvenance(shape: shape, stating: shape.facts).bits
    }

    /// A record of `shape` that states `facts`.
    init(shape: TransactionShape, stating facts: [TransactionFact]) {
        bits = UInt64(shape.rawValue) << 60
        for fact in facts { set(fact, to: shape) }
    }

    init(bits: UInt64) {
        self.bits = bits
    }

    /// The shape of the record itself (for merged deliveries, the latest's).
    public var shape: TransactionShape {
        TransactionShape(rawValue: UInt8(truncatingIfNeeded: bits >> 60)) ?? .canonical
    }

    /// The shape that stated `fact`; `nil` when no delivery did.
    public func source(of fact: TransactionFact) -> TransactionShape? {
        TransactionShape(rawValue: UInt8(truncatingIfNeeded: (bits >> (4 * UInt64(fact.rawValue))) & 0xF))
    }

    /// Whether some delivery stated `fact`.
    public func states(_ fact: TransactionFact) -> Bool { source(of: fact) != nil }

    /// Notes that `shape` stated `fact`.
    mutating func set(_ fact: TransactionFact, to shape: TransactionShape?) {
        let shift = 4 * UInt64(fact.rawValue)
        bits = (bits & ~(0xF << shift)) | (UInt64(shape?.rawValue ?? 0) << shift)
    }

    /// Makes `shape` the record's own.
    mutating func setShape(_ shape: TransactionShape) {
        bits = (bits & ~(0xF << 60)) | (UInt64(shape.rawValue) << 60)
    }

    private static let typeShift: UInt64 = 44

    /// What the product type rests on; `nil` when the record does not say.
    public var typeSource: ProductTypeSource? {
        get {
            let raw = (bits >> Self.typeShift) & 0xF
            return raw == 0 ? nil : ProductTypeSource(rawValue: UInt8(raw - 1))
        }
        set {
            let raw = newValue.map { UInt64($0.rawValue) + 1 } ?? 0
            bits = (bits & ~(0xF << Self.typeShift)) | (raw << Self.typeShift)
        }
    }

    /// As the snapshot's `fact_sources` and `explain` give it: the record's shape, then each
    /// fact another shape stated (`fact=shape`), then the product type's source when it is
    /// not the record's own field, `;`-separated: `revenuecat_subscription;
    /// original_transaction_id=revenuecat_export; ownership_type=revenuecat_export;
    /// product_type=policy`. A fact no delivery stated is not named.
    public var described: String {
        let shape = self.shape
        var parts = [shape.code]
        for fact in TransactionFact.allCases {
            guard let source = source(of: fact), source != shape else { continue }
            parts.append("\(fact.name)=\(source.code)")
        }
        if let typeSource, typeSource != .record { parts.append("product_type=\(typeSource.code)") }
        return parts.joined(separator: "; ")
    }

    /// The provenance `described` gives back (the product type's source `record` when it
    /// names none); `nil` when `text` is not one.
    public init?(described text: String) {
        let parts = text.components(separatedBy: "; ")
        guard let shape = TransactionShape.allCases.first(where: { $0.code == parts[0] }) else { return nil }
        self.init(shape: shape)
        typeSource = .record
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { return nil }
            if pair[0] == "product_type" {
                guard let source = ProductTypeSource.allCases.first(where: { $0.code == pair[1] }) else { return nil }
                typeSource = source
            } else {
                guard let fact = TransactionFact.allCases.first(where: { $0.name == pair[0] }),
                    let from = TransactionShape.allCases.first(where: { $0.code == pair[1] })
                else { return nil }
                set(fact, to: from)
            }
        }
    }

    /// The nibbles in use (each fact's, the product type's source, the shape), in the order
    /// `packed` keeps them.
    private static let usedNibbles: [UInt64] = Array(0...11) + [15]

    /// The provenance in 39 bits (3 per nibble in use: none holds more than 6), for a record
    /// kept per customer, where the 8 bytes `bits` takes would cost a word of every customer.
    var packed: UInt64 {
        var out: UInt64 = 0
        for (index, nibble) in Self.usedNibbles.enumerated() {
            out |= ((bits >> (4 * nibble)) & 0x7) << (3 * UInt64(index))
        }
        return out
    }

    init(packed: UInt64) {
        var bits: UInt64 = 0
        for (index, nibble) in Self.usedNibbles.enumerated() {
            bits |= ((packed >> (3 * UInt64(index))) & 0x7) << (4 * nibble)
        }
        self.bits = bits
    }

    /// Of two records that decide alike (exact duplicates, folded in whatever order threads
    /// take them), the one whose sources are named: the lesser bits, so that every run names
    /// the same.
    func named(against other: TransactionProvenance) -> TransactionProvenance {
        bits <= other.bits ? self : other
    }
}
