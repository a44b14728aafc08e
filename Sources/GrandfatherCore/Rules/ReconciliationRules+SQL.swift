/// The SQL twin of `ReconciliationRules.swift` (SPEC §9): RevenueCat's active entitlements
/// against the verdict's grants, for the customers it gave a view of.
extension ReconciliationRules {
    /// The two flags' rows, over the verdicts, the grants and RevenueCat's active entitlements.
    func flagsSQL(_ sql: SQLContext, verdicts: String, grants: String) -> [String] {
        let active = sql.tables.serviceEntitlements
        let grandfathered = grandfatheredEntitlements.sorted { $0.codePointPrecedes($1) }.map(sql.literal)
        let noneActive =
            grandfathered.isEmpty
            ? "FALSE"
            : """
            NOT EXISTS (
                    SELECT 1 FROM \(active) AS a
                    WHERE a.customer_id = v.customer_id AND a.entitlement IN (\(grandfathered.joined(separator: ", ")))
                )
            """
        return [
            """
            -- grandfathered_not_granted: SPEC §9; mirrors ReconciliationRules.flags.
            SELECT v.customer_id, 'grandfathered_not_granted' AS flag FROM \(verdicts) AS v
            WHERE v.class = 'grandfathered' AND v.service_view AND \(noneActive)
            """,
            """
            -- granted_not_entitled: SPEC §9; mirrors ReconciliationRules.flags.
            SELECT DISTINCT v.customer_id, 'granted_not_entitled' AS flag FROM \(verdicts) AS v
            JOIN \(active) AS a ON a.customer_id = v.customer_id
            WHERE v.class <> 'excluded' AND v.service_view
                AND NOT EXISTS (
                    SELECT 1 FROM \(grants) AS g WHERE g.customer_id = v.customer_id AND g.entitlement = a.entitlement
                )
            """,
        ]
    }
}
