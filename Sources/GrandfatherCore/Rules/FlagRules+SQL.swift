/// The SQL twin of `FlagRules.swift` (SPEC §5, §8.15–8.24): one condition per flag over the
/// facts each customer's row holds (`ClassificationScript`'s verdicts). The switch is over
/// every flag, so a flag added to the catalog does not build until its SQL is written.
extension AuditRules {
    /// The condition under which a customer of the verdicts carries `flag`, or `nil` for the
    /// flags decided against the grants (`ReconciliationRules`); mirrors `FlagFacts.raises`.
    func flagConditionSQL(_ flag: Flag, _ sql: SQLContext) -> String? {
        let cutover = sql.literal(self.cutover)
        switch flag {
        case .boughtJustBeforeCutover:
            return "original_purchase_date >= \(sql.literal(self.cutover.adding(seconds: -edgeWindowSeconds))) "
                + "AND original_purchase_date < \(cutover)"
        case .boughtJustAfterCutover:
            return "NOT is_grandfathered AND original_purchase_date >= \(cutover) "
                + "AND original_purchase_date < \(sql.literal(self.cutover.adding(seconds: edgeWindowSeconds)))"
        case .versionDateDisagree: return "by_version IS NOT NULL AND by_date IS NOT NULL AND by_version <> by_date"
        case .naiveVersionTrap: return "by_version IS NOT NULL AND by_version <> naively_lower"
        case .missingOriginalVersion: return "original_app_version IS NULL"
        case .unparseableVersion: return "unparseable"
        case .noCutoverForPlatform:
            // Only where the policy has a versions table at all (docs/Decisions.md, "Decisions").
            guard hasVersions else { return "FALSE" }
            let apple = Platform.allCases.filter(\.isApple).map { "'\($0.rawValue)'" }.joined(separator: ", ")
            return "platform IN (\(apple)) AND NOT has_cutover_version"
        case .preordered: return "preorder_date IS NOT NULL"
        case .grandfatheredAndSubscribed: return "is_grandfathered AND current_purchased_subscription"
        case .billingRetry: return "NOT is_grandfathered AND NOT any_current AND latest_renewable_in_billing_retry"
        case .inGracePeriod: return "NOT is_grandfathered AND any_current AND all_current_through_grace"
        case .familySharedOnly: return "NOT is_grandfathered AND any_current AND all_current_family_shared"
        case .refunded: return "has_revoked_durable"
        case .consumableOnly: return "has_transaction AND NOT has_durable"
        case .orphanTransactions: return "is_orphan"
        case .sandbox: return "environment = 'sandbox'"
        case .conflictingDuplicate: return "has_conflicting_duplicate"
        case .impossibleDates:
            let asOf = sql.literal(self.asOf)
            return "has_impossible_transaction OR COALESCE(original_purchase_date > \(asOf), FALSE) "
                + "OR COALESCE(preorder_date > \(asOf), FALSE)"
        case .unlinkedTransactions: return "is_unlinked"
        case .conflictingCustomerFacts: return "has_conflicting_facts"
        case .orderNotFound, .orderRefunded, .orderClaimedTwice:
            return "order_claims LIKE '%\(flag.orderClaim.code)%'"
        case .licensedOnlyAfterCutover: return "licensed_only_after_cutover"
        case .grandfatheredNotGranted, .grantedNotEntitled: return nil
        }
    }

    /// `(customer_id, flag)` for every flag the facts decide: a sandbox customer carries
    /// `sandbox` alone (SPEC §8.9), every other customer each flag whose condition holds.
    func flagsSQL(_ sql: SQLContext, verdicts: String) -> [String] {
        Flag.inCodeOrder.compactMap { flag in
            guard let condition = flagConditionSQL(flag, sql) else { return nil }
            let scope = flag == .sandbox ? "" : "class <> 'excluded' AND "
            return "-- \(flag.code): SPEC \(flag.specSection).\n"
                + "SELECT customer_id, '\(flag.code)' AS flag FROM \(verdicts) WHERE \(scope)COALESCE(\(condition), FALSE)"
        }
    }
}

extension Flag {
    /// Where SPEC states the flag's rule.
    var specSection: String {
        switch self {
        case .boughtJustBeforeCutover: return "§5, §8.15"
        case .boughtJustAfterCutover: return "§5"
        case .versionDateDisagree: return "§5, §8.16"
        case .naiveVersionTrap: return "§5, §8.17"
        case .missingOriginalVersion, .unparseableVersion, .preordered: return "§5"
        case .noCutoverForPlatform: return "§5, §8.14"
        case .grandfatheredAndSubscribed: return "§5, §8.18"
        case .billingRetry: return "§5, §8.19"
        case .inGracePeriod, .familySharedOnly: return "§5, §8.20"
        case .refunded: return "§5, §8.21"
        case .consumableOnly: return "§5, §8.22"
        case .orphanTransactions: return "§5, §8.14"
        case .sandbox: return "§5, §8.9"
        case .conflictingDuplicate: return "§5, §8.23"
        case .impossibleDates: return "§5, §8.24"
        case .unlinkedTransactions, .conflictingCustomerFacts, .grandfatheredNotGranted, .grantedNotEntitled,
            .orderNotFound, .orderRefunded, .orderClaimedTwice, .licensedOnlyAfterCutover:
            return "§9"
        }
    }
}
