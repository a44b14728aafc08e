/// A customer (app user) as read from a customers input, or made up for an orphan.
public struct Customer: Sendable, Equatable {
    /// Stable id, as given.
    public var id: String
    /// `nil` only for an orphan customer, whose platform is unknown (SPEC §8.14).
    public var platform: Platform?
    /// `originalAppVersion` of the app transaction, as given (not trimmed).
    public var originalAppVersion: String?
    /// When the app was first purchased or downloaded.
    public var originalPurchaseDate: Instant?
    /// `sandbox` customers are excluded from the four classes.
    public var environment: Environment
    /// Set when the app was pre-ordered.
    public var preorderDate: Instant?
    /// Country or storefront code.
    public var storefront: String?
    /// Whether this customer was created from transactions alone.
    public var isOrphan: Bool

    /// Creates a customer.
    public init(
        id: String, platform: Platform?, originalAppVersion: String? = nil, originalPurchaseDate: Instant? = nil,
        environment: Environment = .production, preorderDate: Instant? = nil, storefront: String? = nil,
        isOrphan: Bool = false
    ) {
        self.id = id
        self.platform = platform
        self.originalAppVersion = originalAppVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.environment = environment
        self.preorderDate = preorderDate
        self.storefront = storefront
        self.isOrphan = isOrphan
    }

    /// The customer SPEC §8.14 makes for transactions whose owner is not in the customers input.
    public static func orphan(id: String) -> Customer {
        Customer(id: id, platform: nil, isOrphan: true)
    }
}

/// One in-app transaction after normalization: instants in UTC, enums closed, defaults applied.
public struct Transaction: Sendable, Equatable {
    public var transactionID: String
    public var originalTransactionID: String?
    public var customerID: String
    public var productID: String
    public var productType: ProductType
    public var purchaseDate: Instant
    public var expiresDate: Instant?
    public var revocationDate: Instant?
    public var ownership: OwnershipType
    public var environment: Environment
    /// The price as a canonical decimal (`4.990` and `04.99` are both `4.99`).
    public var price: String?
    /// ISO 4217 code, upper-cased.
    public var currency: String?
    public var renewalState: RenewalState?
    public var gracePeriodExpiresDate: Instant?

    /// Creates a transaction; only the SPEC's required fields have no default.
    public init(
        transactionID: String, originalTransactionID: String? = nil, customerID: String, productID: String,
        productType: ProductType, purchaseDate: Instant, expiresDate: Instant? = nil, revocationDate: Instant? = nil,
        ownership: OwnershipType = .purchased, environment: Environment = .production, price: String? = nil,
        currency: String? = nil, renewalState: RenewalState? = nil, gracePeriodExpiresDate: Instant? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.customerID = customerID
        self.productID = productID
        self.productType = productType
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.ownership = ownership
        self.environment = environment
        self.price = price
        self.currency = currency
        self.renewalState = renewalState
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
    }

    /// Revoked when a revocation date is present (whenever it lies) or the state says so (SPEC §8.11).
    public var isRevoked: Bool { revocationDate != nil || renewalState == .revoked }
}

/// An input row that was not accepted: data, never thrown (STYLE: two error channels).
public struct Rejection: Sendable, Equatable {
    /// The input path as given on the command line.
    public var file: String
    /// The line the record starts on (1-based; the header is line 1).
    public var line: Int
    /// The 1-based position of the offending field in the CSV header, when there is one.
    public var column: Int?
    /// The offending field's name, when there is one.
    public var field: String?
    /// Why the row was not accepted, one line.
    public var reason: String

    /// Creates a rejection.
    public init(file: String, line: Int, column: Int? = nil, field: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason
    }
}
