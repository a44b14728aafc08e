/// A transaction's fields in SPEC §2, in order, as the library's canonical readers name them:
/// the readers' tests read headers and keys of the width and names real files have (the
/// engine itself names no field).
enum TransactionFields {
    static let names = [
        "transaction_id", "original_transaction_id", "customer_id", "product_id", "product_type", "purchase_date",
        "expires_date", "revocation_date", "ownership_type", "environment", "price", "currency", "renewal_state",
        "grace_period_expires_date",
    ]

    /// The place of the field `name` among `names`.
    static func index(_ name: String) -> Int {
        names.firstIndex(of: name) ?? names.count
    }
}
