import GrandfatherEngine

/// Everything `grandfather explain` says about one customer, as one snapshot recorded it:
/// the customer's row, flags, grants and deciding transactions, and the run (as-of, policy).
///
/// Read back with `Explanation.read(customerID:snapshot:)`; rendered by `ExplanationText`.
public struct Explanation: Sendable {
    /// The run that wrote the snapshot: its last `runs` row.
    public struct Run: Sendable {
        public var runID: String
        public var asOf: Instant
        public var policyName: String?
        /// SHA-256 of the policy file, hex.
        public var policyDigest: String
    }

    /// The customer's row of `customers`, as recorded.
    public struct Facts: Sendable {
        public var customerID: String
        /// `nil` for an orphan, whose platform is unknown.
        public var platform: String?
        public var originalAppVersion: String?
        public var originalPurchaseDate: Instant?
        public var environment: Environment
        public var preorderDate: Instant?
        public var storefront: String?
        public var isOrphan: Bool
        /// The cutover version that applied (its platform's, else `default`), as the policy wrote it.
        public var cutoverVersion: String?
        /// The two answers of SPEC §8.10; `nil` when there is none.
        public var byVersion: Bool?
        public var byDate: Bool?
    }

    /// A transaction that decided the class, a grant or a flag, with what the run kept of it
    /// (`nil` where it kept nothing): from the `entitlements` rows that name it, or from
    /// `deciding_transactions`.
    public struct DecidingTransaction: Sendable {
        public var transactionID: String
        public var productID: String?
        public var productType: ProductType
        /// Owned through Family Sharing; `nil` when the run kept no ownership.
        public var familyShared: Bool?
        public var purchaseDate: Instant?
        public var renewalState: RenewalState?
        public var isCurrent: Bool
        /// When it stops being current: expiry, grace end, or purchase + term; `nil` for a
        /// non-consumable and for a transaction that is not current.
        public var currentUntil: Instant?
        /// Current only through a billing grace period.
        public var throughGrace: Bool
        /// Which source shape gave each of its facts (`TransactionProvenance.described`);
        /// `nil` in a snapshot written before they were recorded (schema version 7).
        public var factSources: String?

        /// The same transaction and version: what one `entitlements` row per entitlement repeats.
        func isSameVersion(as other: DecidingTransaction) -> Bool {
            transactionID.codePointEquals(other.transactionID) && productID == other.productID
                && productType == other.productType && currentUntil == other.currentUntil
                && throughGrace == other.throughGrace && familyShared == other.familyShared
        }
    }

    /// A flag with the severity and explanation of the snapshot's own catalog.
    public struct FlagLine: Sendable {
        public var code: String
        public var severity: String
        public var explanation: String
    }

    public var facts: Facts
    public var customerClass: CustomerClass
    /// The rule that decided the class, from the class, the two answers and the policy's basis.
    public var reason: Verdict.Reason
    /// Sorted by code.
    public var flags: [FlagLine]
    /// Sorted by entitlement, source, transaction.
    public var grants: [EntitlementGrant]
    /// Current transactions first (by id), then a `billing_retry` customer's latest
    /// auto-renewable; `nil` when the snapshot was written before they were recorded.
    public var transactions: [DecidingTransaction]?
    public var run: Run
    /// The policy of the run, read back from `runs.policy_json`.
    public var policy: Policy
    /// The snapshot's `PRAGMA user_version`.
    public var schemaVersion: Int

    /// The grants a transaction made, from `entitlements`.
    public func grants(through transactionID: String) -> [EntitlementGrant] {
        grants.filter { $0.transactionID?.codePointEquals(transactionID) ?? false }
    }
}
