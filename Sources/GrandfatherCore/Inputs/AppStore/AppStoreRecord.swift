import GrandfatherEngine

/// What an App Store file holds once read and its signatures checked, before customers are
/// linked (`AppStoreLinker`): each record's values typed where it is read (instants, enums,
/// prices as decimal units), a value that cannot be read refusing its record with the
/// member named as the file spells it, so that the linked records reach the normaliser
/// through its typed door (`IngestSink.accept(transaction:…)`, `accept(customer:…)`).
enum AppStoreRecord: Sendable, Equatable {
    /// An in-app transaction (a signed or decoded transaction, a receipt's `in_app` row…).
    case transaction(AppStoreTransaction)
    /// A customer: an app transaction, or a receipt's app-level fields.
    case customer(AppStoreCustomer)
    /// The renewal state of a subscription (a status response entry, a notification's
    /// renewal info, a receipt's `pending_renewal_info`).
    case renewal(AppStoreRenewal)
    /// A row that carries no record and is not an error (a TEST notification, a summary);
    /// accepted and counted under `note`.
    case noted(line: Int, note: String)
    /// A row refused, with the exact reason (a signature that fails, a status ≠ 0 body…).
    case rejected(line: Int, reason: String)

    /// The 1-based line of the file the row starts on.
    var line: Int {
        switch self {
        case .transaction(let record): return record.line
        case .customer(let record): return record.line
        case .renewal(let record): return record.line
        case .noted(let line, _), .rejected(let line, _): return line
        }
    }
}

/// How far a record's content can be trusted; every report names the weakest trust a run used.
enum AppStoreTrust: String, Sendable, Equatable, Comparable, CaseIterable {
    /// Signed, and the signature and chain verified.
    case verified
    /// Not verified, and the payload says it comes from Xcode or LocalTesting (whose data
    /// is self-signed): read only when the user asks for it, and then only as sandbox.
    case selfSigned = "self_signed"
    /// Signed, read with `--no-verify`, unchecked.
    case unchecked
    /// Carried no signature (decoded payloads, verifyReceipt responses): read with `--trust-decoded`.
    case unsigned

    /// Strongest first.
    private var rank: Int {
        switch self {
        case .verified: return 0
        case .selfSigned: return 1
        case .unchecked: return 2
        case .unsigned: return 3
        }
    }

    static func < (lhs: AppStoreTrust, rhs: AppStoreTrust) -> Bool { lhs.rank < rhs.rank }

    /// The name reports give the rows of this trust: every trust but `verified` says that it
    /// is not verified.
    var reportName: String {
        switch self {
        case .verified: return "verified"
        case .selfSigned: return "self-signed (unverified)"
        case .unchecked: return "unchecked (unverified)"
        case .unsigned: return "unsigned (unverified)"
        }
    }
}

/// One transaction, with the identities the linker needs beside its values.
struct AppStoreTransaction: Sendable, Equatable {
    var line: Int
    /// Its ids, product, price and currency. `customerID` is left for the linker unless the
    /// file names the customer (a receipt wrapper's `customer_id`).
    var texts: OwnedTransactionTexts
    /// Its values; the linker sets the renewal state and grace end its subscription's renewal
    /// info gives.
    var values: MappedTransaction
    /// `appTransactionId`, when the payload carries it.
    var appTransactionID: String?
    /// `appAccountToken`, when the payload carries it.
    var appAccountToken: String?
    /// `signedDate` of the payload: of several copies of one transaction the latest wins.
    var signedDate: Instant?
    var trust: AppStoreTrust

    var transactionID: String? { texts[.transactionID] }

    /// The values of an App Store transaction as read, before its renewal info is applied:
    /// its product type is its own (SPEC §9), its ownership purchased unless it says otherwise.
    static func values(
        type: ProductType, purchased: Instant, expires: Instant?, revoked: Instant?, ownership: OwnershipType?,
        environment: Environment
    ) -> MappedTransaction {
        MappedTransaction(
            productType: type, typeSource: .record, purchaseDate: purchased, expiresDate: expires,
            revocationDate: revoked, ownership: ownership ?? .purchased, environment: environment, renewalState: nil,
            gracePeriodExpiresDate: nil, storePlatform: nil, isPromotional: false,
            provenance: TransactionProvenance(shape: .appStore))
    }

    /// The subscription it belongs to: its original transaction, else itself.
    var subscription: String? { texts[.originalTransactionID] ?? texts[.transactionID] }
}

/// One customer: an app transaction or a receipt's app-level fields.
struct AppStoreCustomer: Sendable, Equatable {
    var line: Int
    /// The customer's id: an app transaction's `appTransactionId` (the linker may name it by
    /// its account token), a receipt's customer; `nil` when the source names none.
    var id: String?
    /// `nil` when the source has no `originalPlatform` (before iOS 18.4) and for receipts;
    /// the linker applies the policy's `apple.default_platform` or rejects the row.
    var platform: Platform?
    var originalAppVersion: String?
    var originalPurchaseDate: Instant?
    var preorderDate: Instant?
    /// Xcode's and self-signed data read as sandbox (SPEC §8.4).
    var environment: Environment
    /// `appTransactionId` of an app transaction.
    var appTransactionID: String?
    /// For a receipt: the `original_transaction_id` of its earliest in-app purchase, which
    /// names a bare receipt's customer; its transactions carry the same customer id.
    var receiptOwnerTransactionID: String?
    /// `receiptCreationDate` (app transaction) or the receipt's creation date.
    var signedDate: Instant?
    var trust: AppStoreTrust

    /// The customer it states, named `id` on `platform`: every fact it holds is the App
    /// Store's, verified or not as its trust says (SPEC §9).
    func customer(id: String, platform: Platform) -> Customer {
        Customer(
            id: id, platform: platform, originalAppVersion: originalAppVersion,
            originalPurchaseDate: originalPurchaseDate, environment: environment, preorderDate: preorderDate
        ).read(from: trust == .verified ? .appStoreVerified : .appStoreUnverified)
    }
}

/// The renewal state of one subscription, to be set on its latest transaction.
struct AppStoreRenewal: Sendable, Equatable {
    var line: Int
    var originalTransactionID: String
    /// The state, when the source says.
    var renewalState: RenewalState?
    var gracePeriodExpiresDate: Instant?
    var signedDate: Instant?
    var trust: AppStoreTrust
}

/// What checking one JWS concluded.
enum SignatureOutcome: Sendable, Equatable {
    /// The chain ends in a trusted root, carries Apple's marker OIDs, was valid at the
    /// validation time, and the ES256 signature holds.
    case verified
    /// `--no-verify`: not checked.
    case unchecked
    /// Refused; the reason is one line (bad signature, unknown root, expired at signedDate,
    /// missing OID, alg not ES256…).
    case refused(String)
}

/// Checks one JWS. `signedAt` is the payload's own signing instant (`signedDate`, an app
/// transaction's `receiptCreationDate`, or an early notification's inner transaction's
/// `signedDate`): read before the check, as Apple's verifier reads it, and harmless so, since
/// the signature covers it and nothing is verified unless the signature holds.
///
/// Nothing else the payload says reaches the check: what it claims about itself (an Xcode
/// environment, a receipt type) is unverified until the check says `verified`.
protocol JWSChecking: Sendable {
    func check(_ jws: CompactJWS, signedAt: Instant?) -> SignatureOutcome
}
