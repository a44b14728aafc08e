import GrandfatherEngine

/// SPEC §8.23: when two production rows with one `transaction_id` are the same transaction (an
/// exact duplicate, which counts once) and when they are two versions of it (a conflicting
/// duplicate, which flags every customer any version names).
///
/// Two rows are the same when every field of `Field` is: the transaction's normalised content
/// (instants in UTC, enums closed, defaults applied, the price as a canonical decimal), not
/// the bytes a file spelled it with, and nothing a source added beside it: unknown columns
/// never reach a transaction, and where a fact came from (`provenance`, the warehouse's
/// `fact_sources`) or the store a RevenueCat row names (`storePlatform`, a customer fact) is
/// no content.
///
/// The ledger asks this of ten million rows, so it does not call `sameContent`: it compares a
/// hash of these fields, taken straight from a batch's bytes (`TransactionFingerprints.content`);
/// the SQL twin compares these columns (`conflictingCustomersSQL`). Tests hold both to this
/// list (`DuplicateRulesTests`).
enum DuplicateRules {
    /// The fields that make two rows of one id the same, each named as the warehouse's
    /// `transactions` column that holds it (its raw value) and as `Transaction`'s property.
    enum Field: String, CaseIterable, Sendable {
        case transactionID = "transaction_id"
        case originalTransactionID = "original_transaction_id"
        /// A row filed under another customer is another version: both customers are flagged.
        case customerID = "customer_id"
        case productID = "product_id"
        case productType = "product_type"
        case purchaseDate = "purchase_date"
        case expiresDate = "expires_date"
        case revocationDate = "revocation_date"
        case ownership = "ownership_type"
        case environment
        case price
        case currency
        case renewalState = "renewal_state"
        case gracePeriodExpiresDate = "grace_period_expires_date"
        case isPromotional = "is_promotional"
        /// A term the run's evidence gave a non-renewing product (SPEC §9, Product facts): two
        /// copies whose terms end apart are two versions.
        case termEnds = "term_ends"

        /// The warehouse's column for the field.
        var column: String { rawValue }
    }

    /// One row's fields, as plain values.
    struct Content: Sendable {
        var transactionID: String
        var originalTransactionID: String?
        var customerID: String
        var productID: String
        var productType: ProductType
        var purchaseDate: Instant
        var expiresDate: Instant?
        var revocationDate: Instant?
        var ownership: OwnershipType
        var environment: Environment
        /// The canonical decimal (`4.99`).
        var price: String?
        /// ISO 4217, upper-cased.
        var currency: String?
        var renewalState: RenewalState?
        var gracePeriodExpiresDate: Instant?
        var isPromotional: Bool
        var termEnds: Instant?
    }

    /// Whether `one` and `other`, two rows of one id, are the same transaction: every field
    /// of `Field` the same.
    static func sameContent(_ one: Content, _ other: Content) -> Bool {
        Field.allCases.allSatisfy { one.value(of: $0) == other.value(of: $0) }
    }

    /// A field's value as the comparison weighs it: a text by its exact bytes (as the ledger
    /// compares ids, SPEC §8.7: two spellings Unicode calls equivalent are two contents, where
    /// Swift's `String` equality would take them for one), an enum by its SPEC word, an
    /// instant to the microsecond; absent is a value of its own, never an empty text.
    enum Value: Equatable {
        case text([UInt8]?)
        case instant(Instant?)
        case flag(Bool)
    }
}

extension DuplicateRules.Content {
    /// The value of `field`.
    func value(of field: DuplicateRules.Field) -> DuplicateRules.Value {
        switch field {
        case .transactionID: return .text(Array(transactionID.utf8))
        case .originalTransactionID: return .text(originalTransactionID.map { Array($0.utf8) })
        case .customerID: return .text(Array(customerID.utf8))
        case .productID: return .text(Array(productID.utf8))
        case .productType: return .text(Array(productType.rawValue.utf8))
        case .purchaseDate: return .instant(purchaseDate)
        case .expiresDate: return .instant(expiresDate)
        case .revocationDate: return .instant(revocationDate)
        case .ownership: return .text(Array(ownership.rawValue.utf8))
        case .environment: return .text(Array(environment.rawValue.utf8))
        case .price: return .text(price.map { Array($0.utf8) })
        case .currency: return .text(currency.map { Array($0.utf8) })
        case .renewalState: return .text(renewalState.map { Array($0.rawValue.utf8) })
        case .gracePeriodExpiresDate: return .instant(gracePeriodExpiresDate)
        case .isPromotional: return .flag(isPromotional)
        case .termEnds: return .instant(termEnds)
        }
    }
}
