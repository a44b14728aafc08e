/// What an App Store file holds once read and its signatures checked, before customers are
/// linked (`AppStoreLinker`): each record's fields already in SPEC §2's canonical text
/// (dates as ISO-8601, prices as decimal units, enums as the SPEC spells them), so that the
/// canonical normalizer judges them exactly as it judges a CSV row.
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

/// One transaction, with the identities the linker needs beside the canonical fields.
struct AppStoreTransaction: Sendable, Equatable {
    var line: Int
    /// Canonical field text by field; `customer_id` is left for the linker unless the file
    /// names the customer (a receipt wrapper's `customer_id`).
    var fields: [TransactionField: String]
    /// `appTransactionId`, when the payload carries it.
    var appTransactionID: String?
    /// `appAccountToken`, when the payload carries it.
    var appAccountToken: String?
    /// `signedDate` of the payload: of several copies of one transaction the latest wins.
    var signedDate: Instant?
    var trust: AppStoreTrust
}

/// One customer: an app transaction or a receipt's app-level fields.
struct AppStoreCustomer: Sendable, Equatable {
    var line: Int
    /// Canonical field text by field. `platform` is absent when the source has no
    /// `originalPlatform` (before iOS 18.4) and receipts; the linker applies the policy's
    /// `apple.default_platform` or rejects the row.
    var fields: [CustomerField: String]
    /// `appTransactionId` of an app transaction.
    var appTransactionID: String?
    /// For a receipt: the `original_transaction_id` of its earliest in-app purchase, which
    /// names a bare receipt's customer; its transactions carry the same customer id.
    var receiptOwnerTransactionID: String?
    /// `receiptCreationDate` (app transaction) or the receipt's creation date.
    var signedDate: Instant?
    var trust: AppStoreTrust
}

/// The renewal state of one subscription, to be set on its latest transaction.
struct AppStoreRenewal: Sendable, Equatable {
    var line: Int
    var originalTransactionID: String
    /// Canonical `renewal_state` text (`subscribed`, `expired`, `in_billing_retry`,
    /// `in_grace_period`, `revoked`), when the source says.
    var renewalState: String?
    /// Canonical `grace_period_expires_date` text.
    var gracePeriodExpiresDate: String?
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
