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
    /// The fields that make two rows of one id the same: every field of SPEC §2's record, and
    /// two a mapped source's evidence adds.
    enum Field: Hashable, Sendable, CaseIterable {
        /// A field of SPEC §2's record; a row filed under another customer is another
        /// version, so both customers are flagged.
        case record(TransactionField)
        /// A grant a store or service made rather than sold (SPEC §9).
        case isPromotional
        /// A term the run's evidence gave a non-renewing product (SPEC §9, Product facts): two
        /// copies whose terms end apart are two versions.
        case termEnds

        static let allCases: [Field] = TransactionField.allCases.map(Field.record) + [.isPromotional, .termEnds]

        /// The warehouse's `transactions` column that holds the field.
        var column: String {
            switch self {
            case .record(let field): return field.name
            case .isPromotional: return "is_promotional"
            case .termEnds: return "term_ends"
            }
        }
    }

    /// Whether `one` and `other`, two rows of one id each read in the batch that holds its
    /// texts, are the same transaction: every field of `Field` the same.
    static func sameContent(
        _ one: Transaction, in oneBatch: TransactionBatch, _ other: Transaction, in otherBatch: TransactionBatch
    ) -> Bool {
        Field.allCases.allSatisfy { $0.value(of: one, in: oneBatch) == $0.value(of: other, in: otherBatch) }
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

extension DuplicateRules.Field {
    /// The field's value in `row`, whose texts lie in `batch`.
    func value(of row: Transaction, in batch: TransactionBatch) -> DuplicateRules.Value {
        func text(_ stored: TextRef) -> DuplicateRules.Value {
            .text(stored.isAbsent ? nil : batch.withBytes(stored) { Array($0) })
        }
        func word(_ spelled: String?) -> DuplicateRules.Value { .text(spelled.map { Array($0.utf8) }) }
        switch self {
        case .isPromotional: return .flag(row.isPromotional)
        case .termEnds: return .instant(row.termEnds)
        case .record(let field):
            switch field {
            case .transactionID: return text(row.transactionID)
            case .originalTransactionID: return text(row.originalTransactionID)
            case .customerID: return text(row.customerID)
            case .productID: return text(row.productID)
            case .productType: return word(row.productType.rawValue)
            case .purchaseDate: return .instant(row.purchaseDate)
            case .expiresDate: return .instant(row.expiresDate)
            case .revocationDate: return .instant(row.revocationDate)
            case .ownershipType: return word(row.ownership.rawValue)
            case .environment: return word(row.environment.rawValue)
            case .price: return text(row.price)
            case .currency: return text(row.currency)
            case .renewalState: return word(row.renewalState?.rawValue)
            case .gracePeriodExpiresDate: return .instant(row.gracePeriodExpiresDate)
            }
        }
    }
}
