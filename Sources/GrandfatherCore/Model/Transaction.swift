import GrandfatherEngine

/// Where a piece of text lies in a `TransactionBatch`'s bytes; `count` -1 means absent.
struct TextRef: Sendable, Equatable {
    var start: Int32
    var count: Int32

    static let absent = TextRef(start: 0, count: -1)

    var isAbsent: Bool { count < 0 }
}

/// One in-app transaction after normalization: instants in UTC, enums closed, defaults
/// applied. Its text fields are spans of the `TransactionBatch` (Model/TransactionBatch.swift) that carries it, so that
/// normalizing millions of transactions makes no string per field (transaction ids are
/// often longer than the 15 bytes a Swift string holds without allocating).
struct Transaction: Sendable, Equatable {
    var transactionID: TextRef
    var originalTransactionID: TextRef
    var customerID: TextRef
    var productID: TextRef
    var productType: ProductType
    var purchaseDate: Instant
    var expiresDate: Instant?
    var revocationDate: Instant?
    var ownership: OwnershipType
    var environment: Environment
    /// The price as a canonical decimal (`4.990` and `04.99` are both `4.99`).
    var price: TextRef
    /// ISO 4217 code, upper-cased.
    var currency: TextRef
    var renewalState: RenewalState?
    var gracePeriodExpiresDate: Instant?
    /// The platform of the store a RevenueCat row was bought in (SPEC §9): a customer fact of
    /// the weakest source, for a customer no other source gives a platform. Canonical rows
    /// have none.
    var storePlatform: Platform? = nil
    /// A grant a store or service made rather than sold (SPEC §9: RevenueCat's `promotional`
    /// store), current by its own rule (`AuditRules.currency`). Canonical rows are never one.
    var isPromotional = false
    /// Which shape the record came in and which shape stated each fact.
    var provenance = TransactionProvenance(shape: .canonical)
    /// When a non-renewing transaction's term ends, where its product's term is the run's
    /// evidence (an export's `product_duration`) rather than the policy's (SPEC §9).
    var termEnds: Instant? = nil

    /// Revoked when a revocation date is present (whenever it lies) or the state says so (SPEC §8.11).
    var isRevoked: Bool { revocationDate != nil || renewalState == .revoked }
}
