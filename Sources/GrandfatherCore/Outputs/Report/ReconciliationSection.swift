/// The reports' RevenueCat reconciliation (issue 16), for a run that read subscriber
/// responses: how many customers were reconciled, the two flags that compare RevenueCat's
/// active entitlements with the verdict, the customers they flag, and the grants files.
struct ReconciliationSection {
    /// A customer the reconciliation flagged.
    struct Row {
        var id: String
        var customerClass: CustomerClass
        /// Its reconciliation flags, in catalog order.
        var flags: [Flag]
        /// What RevenueCat has active at as-of.
        var active: Set<String>
        /// What the verdict grants, in `EntitlementGrant` order.
        var grants: [EntitlementGrant]
    }

    /// The flags the reconciliation raises, in catalog order.
    static let flags: [Flag] = [.grandfatheredNotGranted, .grantedNotEntitled]

    /// Customers with a subscriber response whose verdict was compared with it (a sandbox
    /// customer, excluded, is not: it holds nothing to compare).
    var reconciled = 0
    /// Customers per reconciliation flag, in `flags` order.
    var counts: [(Flag, Int)]
    /// Customers carrying either flag.
    var flagged = 0
    /// The first `listed` of them, in id order (code-point order, as `Audit.customers`).
    var rows: [Row] = []
    /// The grants `grants.csv` and `grants.jsonl` hold.
    var grants: Int

    /// The section of `audit`, listing at most `listed` customers; `nil` when the run
    /// reconciled nothing.
    init?(_ audit: Audit, listed: Int) {
        guard audit.reconciled else { return nil }
        let service = audit.serviceEntitlements
        counts = audit.flagCounts.filter { Self.flags.contains($0.0) }
        grants = GrantsFiles.grants(audit).count
        audit.customers.forEachVerdict { customer, verdict, activity in
            guard verdict.customerClass != .excluded, let active = service[customer.id] else { return }
            reconciled += 1
            let flags = Self.flags.filter(verdict.flags.contains)
            guard !flags.isEmpty else { return }
            flagged += 1
            guard rows.count < listed else { return }
            rows.append(
                Row(
                    id: customer.id, customerClass: verdict.customerClass, flags: flags, active: active,
                    grants: audit.customers.grants(of: verdict, activity)))
        }
    }

    /// RevenueCat's active entitlements as text, in code-point order: `navigation, premium`,
    /// or `none`.
    static func activeText(_ active: Set<String>) -> String {
        active.isEmpty ? "none" : active.sorted { $0.codePointPrecedes($1) }.joined(separator: ", ")
    }

    /// What the verdict grants as text, each entitlement with its source once:
    /// `premium (grandfathered), premium (purchase)`, or `nothing`.
    static func grantsText(_ grants: [EntitlementGrant]) -> String {
        var parts: [String] = []
        for grant in grants {
            let part = "\(grant.entitlement) (\(grant.source.rawValue))"
            // Grants are sorted by entitlement then source: repeats, from several transactions, are adjacent.
            if parts.last != part { parts.append(part) }
        }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}
