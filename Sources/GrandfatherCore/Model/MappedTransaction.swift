import GrandfatherEngine

/// A transaction as a source that maps its own rows read it (RevenueCat's export and
/// subscriber responses, a `normalize` folder): every value typed and parsed once, with which
/// shape stated each fact. It reaches the ledger through `IngestSink.accept(transaction:…)`,
/// never as canonical text parsed a second time.
///
/// Its texts (ids, product, price, currency) lie apart, in the row or spill it was read
/// from (`TransactionTexts`), so that reading millions of rows makes no string per field.
struct MappedTransaction: Sendable, Equatable {
    var productType: ProductType
    /// What the product type rests on (SPEC §9, Product facts).
    var typeSource: ProductTypeSource
    var purchaseDate: Instant
    var expiresDate: Instant?
    var revocationDate: Instant?
    var ownership: OwnershipType
    var environment: Environment
    var renewalState: RenewalState?
    var gracePeriodExpiresDate: Instant?
    /// The platform of the store it was bought in (SPEC §9), when the store names one.
    var storePlatform: Platform?
    /// A grant a store or service made rather than sold (SPEC §9: RevenueCat's `promotional` store).
    var isPromotional: Bool
    var provenance: TransactionProvenance
    /// When a non-renewing transaction's term ends, where its product's term comes from the
    /// run's evidence (`ProductFacts`) rather than the policy; `nil` otherwise.
    var termEnds: Instant? = nil
}

/// What a transaction's product type rests on, strongest first (SPEC §9, Product facts).
public enum ProductTypeSource: UInt8, CaseIterable, Comparable, Sendable {
    /// The policy's `products[id].type`.
    case policy
    /// The record's own `product_type` field (a canonical or `normalize` folder row).
    case record
    /// An export row's `is_auto_renewable`, `product_duration` or `entitlement_identifiers`.
    case export
    /// What a subscriber response's shape implies.
    case response
    /// A Google Play subscription's plan: auto-renewing, or prepaid (non-renewing).
    case playSubscription
    /// SPEC §8.12's fallback: consumable.
    case fallback

    public static func < (lhs: ProductTypeSource, rhs: ProductTypeSource) -> Bool { lhs.rawValue < rhs.rawValue }

    /// As reports name it.
    public var code: String {
        switch self {
        case .policy: return "policy"
        case .record: return "record"
        case .export: return "revenuecat_export"
        case .response: return "revenuecat_subscriber"
        case .playSubscription: return "play_subscription"
        case .fallback: return "fallback"
        }
    }
}

/// The texts of a transaction, in the order `TransactionTexts` gives them.
enum TransactionText: Int, CaseIterable, Sendable {
    case transactionID, originalTransactionID, customerID, productID
    /// A canonical decimal (`4.99`), as the source made it.
    case price
    case currency

    /// What it is to the one rule (`TextBytes`): the ids, and two other texts.
    var kind: TextBytes.Kind {
        switch self {
        case .transactionID, .originalTransactionID, .customerID, .productID: return .identifier
        case .price, .currency: return .value
        }
    }

    /// The canonical field it fills, whose name a problem with it gives.
    var field: TransactionField {
        switch self {
        case .transactionID: return .transactionID
        case .originalTransactionID: return .originalTransactionID
        case .customerID: return .customerID
        case .productID: return .productID
        case .price: return .price
        case .currency: return .currency
        }
    }
}

/// Where a mapped transaction's texts lie.
protocol TransactionTexts {
    /// Gives `body` the bytes of `text`; `nil`, without calling it, when the text is absent.
    func read<Result>(_ text: TransactionText, _ body: (Span<UInt8>) -> Result) -> Result?
}

/// Texts held as values: a merged delivery's, a test's.
struct OwnedTransactionTexts: TransactionTexts, Sendable, Hashable {
    private var values: [[UInt8]?] = Array(repeating: nil, count: TransactionText.allCases.count)

    init() {}

    /// Copies every text of `texts`.
    init(_ texts: some TransactionTexts) {
        for text in TransactionText.allCases {
            values[text.rawValue] = texts.read(text) { span in
                var copy: [UInt8] = []
                copy.reserveCapacity(span.count)
                for index in span.indices { copy.append(span[index]) }
                return copy
            }
        }
    }

    subscript(text: TransactionText) -> String? {
        get { values[text.rawValue].map { String(decoding: $0, as: UTF8.self) } }
        set { values[text.rawValue] = newValue.flatMap { $0.isEmpty ? nil : Array($0.utf8) } }
    }

    /// Sets `text` to `other`'s, byte for byte.
    mutating func copy(_ text: TransactionText, from other: OwnedTransactionTexts) {
        values[text.rawValue] = other.values[text.rawValue]
    }

    func read<Result>(_ text: TransactionText, _ body: (Span<UInt8>) -> Result) -> Result? {
        guard let bytes = values[text.rawValue] else { return nil }
        return body(bytes.span)
    }
}
