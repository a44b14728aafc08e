import GrandfatherEngine

/// One effective entitlement: what, why, through which transaction, until when (SPEC §8.13).
public struct EntitlementGrant: Sendable, Equatable, Comparable {
    public var entitlement: String
    public var source: EntitlementSource
    /// The granting transaction; `nil` for a grandfathered grant.
    public var transactionID: String?
    /// When the grant ends as of this run; `nil` for non-consumables and grandfathered grants.
    public var expiresDate: Instant?

    public init(entitlement: String, source: EntitlementSource, transactionID: String?, expiresDate: Instant?) {
        self.entitlement = entitlement
        self.source = source
        self.transactionID = transactionID
        self.expiresDate = expiresDate
    }

    public static func < (lhs: EntitlementGrant, rhs: EntitlementGrant) -> Bool {
        if lhs.entitlement != rhs.entitlement { return lhs.entitlement.codePointPrecedes(rhs.entitlement) }
        if lhs.source != rhs.source { return lhs.source.rawValue.codePointPrecedes(rhs.source.rawValue) }
        if lhs.transactionID != rhs.transactionID {
            return (lhs.transactionID ?? "").codePointPrecedes(rhs.transactionID ?? "")
        }
        return (lhs.expiresDate?.microseconds ?? .min) < (rhs.expiresDate?.microseconds ?? .min)
    }
}

/// How the policy's basis answered "bought before the cutover" for one customer (SPEC §8.10).
public struct CutoverAnswers: Sendable, Equatable {
    /// Yes/no from the version; `nil` when there is no answer.
    public var byVersion: Bool?
    /// Yes/no from the original purchase date; `nil` when there is no answer.
    public var byDate: Bool?
    /// The cutover version that applied, if the platform has one.
    public var cutoverVersion: AppVersion?
}

/// A classified customer: the unit every report and the snapshot are made of.
public struct CustomerResult: Sendable {
    public var customer: Customer
    public var customerClass: CustomerClass
    /// Sorted by code.
    public var flags: [Flag]
    /// Sorted by entitlement, source, transaction.
    public var entitlements: [EntitlementGrant]
    public var answers: CutoverAnswers
}
