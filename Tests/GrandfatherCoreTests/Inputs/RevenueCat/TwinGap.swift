@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Why a customer's canonical data has no RevenueCat twin that gives the same result: what
/// the export, the subscriber responses and the customer list cannot say. A customer may
/// have several.
enum TwinGap: Int, CaseIterable {
    case sandboxCustomer
    case orphan
    case platform
    case preorder
    case revokedWithoutDate
    case refundInBillingRetry
    case graceOutsideGracePeriod
    case conflictWrittenOtherwise
    case consumableOfATypedProduct
    case versionsResolvedByResponse
    case itemTypeUnstated

    var reason: String {
        switch self {
        case .sandboxCustomer:
            return "sandbox customer: RevenueCat has sandbox transactions, never a sandbox customer"
        case .orphan:
            return "orphan: an export's rows make a customer of their store's platform, and responses name "
                + "their customers: RevenueCat has no orphan"
        case .platform:
            return "platform other than ios and macos: a store says App Store (iOS) or Mac App Store"
        case .preorder:
            return "preorder_date: no RevenueCat field carries it"
        case .revokedWithoutDate:
            return "renewal_state revoked without revocation_date: the export marks a refund by refunded_at alone"
        case .refundInBillingRetry:
            return "refunded and in billing retry: a refunded export row is revoked, and SPEC §8.19 reads the state"
        case .graceOutsideGracePeriod:
            return "grace_period_expires_date without in_grace_period: the export reads a grace end as a grace period"
        case .conflictWrittenOtherwise:
            return "conflicting versions that differ only in a renewal_state the export cannot write, or whose "
                + "SPEC §8.19 tie it breaks otherwise"
        case .versionsResolvedByResponse:
            return "a transaction id in several versions (or of several customers): a later response holds "
                + "one, which every export row of the id is an earlier delivery of"
        case .itemTypeUnstated:
            return "a one-time purchase whose type no response's entitlements tell: a response's item states no "
                + "type, and RevenueCat's entitlements name one product each (SPEC §9, Product facts)"
        case .consumableOfATypedProduct:
            return "a consumable row of a product other rows give another type: an export row states no type for "
                + "a consumable, so it takes its product's (SPEC §9, Product facts)"
        }
    }

    /// The renewal state an export row written from `row` reads back as (`ExportTransaction`):
    /// revoked once refunded, else in a grace period with a grace end, else in billing retry
    /// with a billing issue, else none.
    static func exportState(_ row: TwinData.Transaction) -> String? {
        if row.revoked != nil { return "revoked" }
        if row.grace != nil { return "in_grace_period" }
        return row.state == "in_billing_retry" ? "in_billing_retry" : nil
    }

    /// Why a row read back from the export may give its customer another result, `nil` when
    /// it cannot: another state is harmless where no rule reads it. Subscribed and expired are
    /// no state to SPEC §4–§8; a refunded row is revoked whatever its state says, but for
    /// SPEC §8.19's latest auto-renewable; in_grace_period without a grace end grants nothing;
    /// and a consumable's state and grace are read by no rule (SPEC §8.21: never refunded).
    static func gap(_ row: TwinData.Transaction) -> TwinGap? {
        guard row.type != "consumable" else { return nil }
        let renewable = row.type == "auto_renewable"
        if row.revoked == nil, row.state == "revoked" { return .revokedWithoutDate }
        if renewable, row.revoked != nil, row.state == "in_billing_retry" { return .refundInBillingRetry }
        if renewable, row.revoked == nil, row.grace != nil, row.state != "in_grace_period" {
            return .graceOutsideGracePeriod
        }
        return nil
    }

    /// The gaps of each customer of `data` that has any, orphans aside (the canonical audit
    /// names them).
    static func find(
        in data: TwinData, responsesHoldPurchases: Bool = false, customersFileRead: Bool = false
    ) -> [String: Set<TwinGap>] {
        var gaps: [String: Set<TwinGap>] = [:]
        // The canonical customers file, read beside the export, says what no RevenueCat file can.
        for customer in data.customers where !customersFileRead {
            if customer.isSandbox { gaps[customer.id, default: []].insert(.sandboxCustomer) }
            if !["ios", "macos"].contains(customer.platform) { gaps[customer.id, default: []].insert(.platform) }
            if customer.preordered != nil { gaps[customer.id, default: []].insert(.preorder) }
        }
        // Sandbox rows are dropped before anything else (SPEC §8.8).
        let rows = data.transactions.filter { !$0.isSandbox }
        for row in rows { if let gap = gap(row) { gaps[row.customer, default: []].insert(gap) } }
        // Every row, sandbox ones too, is evidence of its product's type.
        let typed = Set(data.transactions.filter { $0.type != "consumable" }.map(\.product))
        for row in rows where row.type == "consumable" && typed.contains(row.product) {
            gaps[row.customer, default: []].insert(.consumableOfATypedProduct)
        }
        if responsesHoldPurchases {
            for (_, versions) in Dictionary(grouping: data.transactions, by: \.id) where Set(versions).count > 1 {
                for row in versions where !row.isSandbox {
                    gaps[row.customer, default: []].insert(.versionsResolvedByResponse)
                }
            }
        }
        for (_, versions) in Dictionary(grouping: rows, by: \.id) {
            for customer in conflictsWrittenOtherwise(Set(versions)) {
                gaps[customer, default: []].insert(.conflictWrittenOtherwise)
            }
        }
        return gaps
    }

    /// The customers with a one-time purchase whose type, read from responses alone, is not
    /// the canonical one: an item states a type only where its customer's `entitlements` name
    /// its product (non-renewing when that entitlement shows an end, else non-consumable);
    /// an item that states none takes what most of its product's items state, the more durable
    /// on a tie, else SPEC §8.12's consumable (`ProductFactRules`).
    static func itemTypesUnstated(
        in view: TwinData, entitlements: [String: [String: (expires: Instant?, product: String?)]]
    ) -> [String: Set<TwinGap>] {
        func stated(_ row: TwinData.Transaction) -> ProductType? {
            let named = (entitlements[row.customer] ?? [:]).values.filter { $0.product == row.product }
            guard !named.isEmpty else { return nil }
            return named.contains { $0.expires != nil } ? .nonRenewing : .nonConsumable
        }
        let items = view.transactions.filter { $0.type != "auto_renewable" }
        var counts: [String: [ProductType: Int]] = [:]
        for row in items { if let type = stated(row) { counts[row.product, default: [:]][type, default: 0] += 1 } }
        var gaps: [String: Set<TwinGap>] = [:]
        for row in items where !row.isSandbox {
            let decided = counts[row.product]?.max { ($0.value, -Int($0.key.code)) < ($1.value, -Int($1.key.code)) }?
                .key
            if (stated(row) ?? decided ?? .consumable).rawValue != row.type {
                gaps[row.customer, default: []].insert(.itemTypeUnstated)
            }
        }
        return gaps
    }

    /// The customers whose result the export can change through `versions`, the distinct
    /// rows of one transaction id: every version of a conflict is used (SPEC §8.23), so each
    /// is read back alone, but versions alike apart from a state the export cannot write are
    /// one transaction to it (no conflict), and of one customer's auto-renewable versions
    /// bought at one instant, SPEC §8.19's latest is the one with the greatest state text.
    static func conflictsWrittenOtherwise(_ versions: Set<TwinData.Transaction>) -> Set<String> {
        guard versions.count > 1 else { return [] }
        func written(_ row: TwinData.Transaction) -> TwinData.Transaction {
            var copy = row
            copy.state = exportState(row)
            return copy
        }
        if Set(versions.map(written)).count == 1 { return Set(versions.map(\.customer)) }
        func latestInBillingRetry(_ states: [String?]) -> Bool {
            states.map { $0 ?? "" }.max { $0.utf8.lexicographicallyPrecedes($1.utf8) } == "in_billing_retry"
        }
        let renewables = versions.filter { $0.type == "auto_renewable" }
        var customers: Set<String> = []
        for (_, tied) in Dictionary(grouping: renewables, by: { "\($0.customer)\u{0}\($0.purchased)" })
        where latestInBillingRetry(tied.map(\.state)) != latestInBillingRetry(tied.map(exportState)) {
            customers.formUnion(tied.map(\.customer))
        }
        return customers
    }
}
