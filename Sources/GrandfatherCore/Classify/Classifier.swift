/// Decides class, flags and entitlements for one customer (SPEC §4, §5, §8.8–8.24).
///
/// A class, so that the closures of the per-customer passes share one policy instead of
/// copying it (and its reference counts) per customer.
public final class Classifier: Sendable {
    public let policy: Policy
    public let asOf: Instant
    private let cutoverRules: CutoverRules
    private let basis: CutoverBasis
    private let entitlements: ProductEntitlements

    public init(policy: Policy, asOf: Instant) {
        self.policy = policy
        self.asOf = asOf
        cutoverRules = CutoverRules(policy: policy, asOf: asOf)
        basis = policy.cutover.basis
        entitlements = ProductEntitlements(policy)
    }

    /// Classifies a customer from its record and folded activity, entitlements included.
    func classify(_ customer: Customer, _ activity: UnsafePointer<CustomerActivity>) -> CustomerResult {
        let verdict = self.verdict(customer, activity)
        var answers = CutoverAnswers(byVersion: verdict.byVersion, byDate: verdict.byDate)
        if let platform = customer.platform, customer.environment == .production {
            answers.cutoverVersion = policy.cutover.version(for: platform)
        }
        return CustomerResult(
            customer: customer, customerClass: verdict.customerClass, flags: Array(verdict.flags),
            entitlements: entitlements(activity, verdict.customerClass), answers: answers)
    }

    /// Class, flags and the two answers: what counts, reports and the snapshot need, in 8
    /// bytes, allocating nothing. `activity` points at the customer's activity, read in place.
    func verdict(_ customer: borrowing Customer, _ activity: UnsafePointer<CustomerActivity>) -> Verdict {
        if customer.environment == .sandbox {
            // SPEC §8.9: excluded, exactly `sandbox`, no entitlements.
            return Verdict(customerClass: .excluded, flags: FlagSet(.sandbox), byVersion: nil, byDate: nil)
        }
        var facts = FlagFacts(customer: customer, activity: activity, rules: cutoverRules)
        let grandfathered = isGrandfathered(byVersion: facts.byVersion, byDate: facts.byDate)
        facts.grandfathered = grandfathered
        let customerClass: CustomerClass
        if grandfathered {
            customerClass = .grandfathered
        } else if facts.anyCurrent {
            customerClass = .subscriber
        } else if facts.hasDurable {
            customerClass = .lapsed
        } else {
            customerClass = .new
        }
        return Verdict(
            customerClass: customerClass, flags: facts.flags(), byVersion: facts.byVersion, byDate: facts.byDate)
    }

    /// The latest auto-renewable transaction, when it alone decided: it raised `billing_retry`
    /// and nothing is current (the current transactions decide otherwise).
    static func decidingLatestRenewable(
        _ verdict: Verdict, _ activity: UnsafePointer<CustomerActivity>
    ) -> CustomerActivity.LatestRenewable? {
        guard verdict.flags.contains(.billingRetry), activity.pointee.current.isEmpty else { return nil }
        return activity.pointee.latestRenewable
    }

    /// The rule of SPEC §4 that put a customer in its class; `grandfathered` names the answers
    /// the basis used (under `either`, every answer that said "before").
    static func reason(
        _ customerClass: CustomerClass, byVersion: Bool?, byDate: Bool?, basis: CutoverBasis
    ) -> Verdict.Reason {
        switch customerClass {
        case .excluded: return .sandbox
        case .subscriber: return .currentTransaction
        case .lapsed: return .nothingCurrent
        case .new: return .nothingDurable
        case .grandfathered:
            let version = byVersion ?? false
            let date = byDate ?? false
            switch basis {
            case .version: return .version
            case .date: return .date
            case .both: return .versionAndDate
            case .either: return version && date ? .versionAndDate : version ? .version : .date
            }
        }
    }

    /// Whether the policy's basis says "bought before the cutover"; an absent answer is a no.
    func isGrandfathered(byVersion: Bool?, byDate: Bool?) -> Bool {
        let version = byVersion ?? false
        let date = byDate ?? false
        switch basis {
        case .version: return version
        case .date: return date
        case .either: return version || date
        case .both: return version && date
        }
    }

    /// One grant per (entitlement, current transaction), plus the grandfathered grants, for the
    /// customer whose activity `activity` points at.
    func entitlements(_ activity: UnsafePointer<CustomerActivity>, _ customerClass: CustomerClass) -> [EntitlementGrant]
    {
        var grants: [EntitlementGrant] = []
        forEachGrant(activity, customerClass) { candidate, _ in
            if !grants.contains(candidate) { grants.append(candidate) }
        }
        if grants.count > 1 { grants.sort() }
        return grants
    }

    /// What the snapshot records of a verdict's grants: each grant (as `entitlements` gives them)
    /// with the product of the transaction behind it, and the current transactions whose
    /// product grants nothing (they still decide the class, SPEC §8.11).
    struct RecordedGrants {
        var grants: [(grant: EntitlementGrant, productID: String?, productType: ProductType?)] = []
        var grantingNothing: [CustomerActivity.CurrentGrant] = []
    }

    /// The grants of a verdict for the snapshot, from the current transactions of the activity
    /// `activity` points at.
    func recordedGrants(_ verdict: Verdict, _ activity: UnsafePointer<CustomerActivity>) -> RecordedGrants {
        var recorded = RecordedGrants()
        forEachGrant(activity, verdict.customerClass) { candidate, transaction in
            guard let index = recorded.grants.firstIndex(where: { $0.grant == candidate }) else {
                recorded.grants.append(
                    (
                        candidate, transaction.map { activity.pointee.current[$0].productID },
                        transaction.map { activity.pointee.current[$0].productType }
                    ))
                return
            }
            // Versions of one id making the same grant (a conflicting duplicate): the smaller
            // product names it, so that input order never shows.
            if let transaction, let kept = recorded.grants[index].productID,
                activity.pointee.current[transaction].productID.codePointPrecedes(kept)
            {
                recorded.grants[index].productID = activity.pointee.current[transaction].productID
                recorded.grants[index].productType = activity.pointee.current[transaction].productType
            }
        } grantsNothing: { transaction in
            recorded.grantingNothing.append(activity.pointee.current[transaction])
        }
        if recorded.grants.count > 1 { recorded.grants.sort { $0.grant < $1.grant } }
        return recorded
    }

    /// Calls `body` with every grant (SPEC §8.13) and the index in the activity's current
    /// transactions of the one behind it (`nil` for a grandfathered grant), duplicates
    /// included; `grantsNothing` with the index of each current transaction whose product
    /// grants no entitlement.
    ///
    /// The transactions are read in place and the policy's entitlements through `entitlements`:
    /// copying either would retain arrays that every customer on every core shares.
    private func forEachGrant(
        _ activity: UnsafePointer<CustomerActivity>, _ customerClass: CustomerClass,
        _ body: (EntitlementGrant, Int?) -> Void, grantsNothing: (Int) -> Void = { _ in }
    ) {
        // SPEC §8.9: an excluded (sandbox) customer holds nothing.
        guard customerClass != .excluded else { return }
        if customerClass == .grandfathered {
            for name in entitlements.grandfathered {
                body(
                    EntitlementGrant(
                        entitlement: entitlements.names[name], source: .grandfathered, transactionID: nil,
                        expiresDate: nil), nil)
            }
        }
        for index in activity.pointee.current.indices {
            let source: EntitlementSource =
                activity.pointee.current[index].throughGrace
                ? .gracePeriod : activity.pointee.current[index].familyShared ? .familyShared : .purchase
            let names = entitlements.of(product: activity.pointee.current[index].productID)
            if names.isEmpty { grantsNothing(index) }
            for name in names {
                body(
                    EntitlementGrant(
                        entitlement: entitlements.names[name], source: source,
                        transactionID: activity.pointee.current[index].transactionID,
                        expiresDate: activity.pointee.current[index].endsAt), index)
            }
        }
    }
}

/// The policy's entitlements per product, flattened into one list of names: a lookup gives a
/// range of it, a value no reference count guards.
struct ProductEntitlements: Sendable {
    let names: [String]
    /// The grants of a grandfathered customer.
    let grandfathered: Range<Int>
    private let unknownProduct: Range<Int>
    private let products: [String: Range<Int>]

    init(_ policy: Policy) {
        var names: [String] = []
        func place(_ list: [String]) -> Range<Int> {
            let start = names.count
            names.append(contentsOf: list)
            return start..<names.count
        }
        grandfathered = place(policy.grandfatheredEntitlements)
        unknownProduct = place(policy.unknownProductEntitlements)
        var products: [String: Range<Int>] = [:]
        for product in policy.products.keys { products[product] = place(policy.entitlements(forProduct: product)) }
        self.names = names
        self.products = products
    }

    /// `Policy.entitlements(forProduct:)`, as positions in `names`.
    func of(product: String) -> Range<Int> {
        products[product] ?? unknownProduct
    }
}

/// The compact outcome of classifying one customer (SPEC §4, §5): a few bytes and no
/// references, so that a million of them are copied, counted and sorted without touching a
/// reference count. What decided it lies in the customer's activity, beside it
/// (`CustomerResults` lends both).
public struct Verdict: Sendable, Equatable {
    public var customerClass: CustomerClass
    /// The version answer of SPEC §8.10: `nil` when there is none.
    public var byVersion: Bool?
    /// The date answer of SPEC §8.10: `nil` when there is none.
    public var byDate: Bool?
    public var flags: FlagSet

    init(customerClass: CustomerClass, flags: FlagSet, byVersion: Bool?, byDate: Bool?) {
        self.customerClass = customerClass
        self.byVersion = byVersion
        self.byDate = byDate
        self.flags = flags
    }

    /// The rule of SPEC §4 that decided a class, as `grandfather explain` states it.
    public enum Reason: String, CaseIterable, Sendable, Codable {
        /// Grandfathered: the version answer said "bought before the cutover".
        case version
        /// Grandfathered: the date answer said so.
        case date
        /// Grandfathered: both answers said so (basis `both`, or `either` with both).
        case versionAndDate = "version_and_date"
        /// Subscriber: not grandfathered, and at least one transaction is current.
        case currentTransaction = "current_transaction"
        /// Lapsed: neither, but it had a non-consumable, auto-renewable or non-renewing transaction.
        case nothingCurrent = "nothing_current"
        /// New: none of the above (consumables alone, or no transaction at all).
        case nothingDurable = "nothing_durable"
        /// Excluded: the customer's own record is sandbox (SPEC §8.9).
        case sandbox
    }
}
