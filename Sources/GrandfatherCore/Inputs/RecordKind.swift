import GrandfatherEngine

/// Which of SPEC §2's two record kinds a file holds, or `sales`: a store's sales report,
/// which counts copies sold and names no customer (`SalesPopulation`), or `evidence`: what a
/// store says of a customer's purchase, weighed once every file is read (the Google Play orders
/// customers claim, stored licensing verdicts).
public enum RecordKind: String, Sendable, Codable, CaseIterable {
    case customers, transactions, sales, evidence

    /// Field names in SPEC order; none for a sales report, whose columns are its store's.
    public var fieldNames: [String] {
        switch self {
        case .customers: return CustomerField.allCases.map(\.name)
        case .transactions: return TransactionField.allCases.map(\.name)
        case .sales: return []
        // Each source of evidence reads its own fields.
        case .evidence: return []
        }
    }

    /// The kind whose fields the given names share more of (SPEC §8.1); `nil` on a tie or none.
    public static func recognize(fieldNames names: [String]) -> RecordKind? {
        let given = Set(names)
        let customers = Set(RecordKind.customers.fieldNames).intersection(given).count
        let transactions = Set(RecordKind.transactions.fieldNames).intersection(given).count
        if customers == transactions { return nil }
        return customers > transactions ? .customers : .transactions
    }
}

/// The fields of a customers record, in SPEC §2 order; raw values index `RawRow.spans`.
public enum CustomerField: Int, CaseIterable, Sendable {
    case customerID, platform, originalAppVersion, originalPurchaseDate, environment, preorderDate, storefront
    /// Not SPEC §2's: a Google Play order the customer claims, weighed as a claimed orders
    /// file's row is (`ClaimedOrderRules`).
    case orderNumber

    /// The field's name in headers and JSON keys.
    public var name: String {
        switch self {
        case .customerID: return "customer_id"
        case .platform: return "platform"
        case .originalAppVersion: return "original_app_version"
        case .originalPurchaseDate: return "original_purchase_date"
        case .environment: return "environment"
        case .preorderDate: return "preorder_date"
        case .storefront: return "storefront"
        case .orderNumber: return "order_number"
        }
    }
}

/// The fields of a transactions record, in SPEC §2 order; raw values index `RawRow.spans`.
public enum TransactionField: Int, CaseIterable, Sendable {
    case transactionID, originalTransactionID, customerID, productID, productType, purchaseDate, expiresDate
    case revocationDate, ownershipType, environment, price, currency, renewalState, gracePeriodExpiresDate

    /// The field's name in headers and JSON keys.
    public var name: String {
        switch self {
        case .transactionID: return "transaction_id"
        case .originalTransactionID: return "original_transaction_id"
        case .customerID: return "customer_id"
        case .productID: return "product_id"
        case .productType: return "product_type"
        case .purchaseDate: return "purchase_date"
        case .expiresDate: return "expires_date"
        case .revocationDate: return "revocation_date"
        case .ownershipType: return "ownership_type"
        case .environment: return "environment"
        case .price: return "price"
        case .currency: return "currency"
        case .renewalState: return "renewal_state"
        case .gracePeriodExpiresDate: return "grace_period_expires_date"
        }
    }
}
