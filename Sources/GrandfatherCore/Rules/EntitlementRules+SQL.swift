/// The SQL twin of `EntitlementRules.swift` (SPEC §8.12, §8.13, §9): what each product grants
/// (the policy's word, else what its rows name, else the grandfathered entitlements), and the
/// grants of each current transaction and each grandfathered customer. The policy's products
/// are inlined as literal rows.
extension AuditRules {
    /// The steps that end in `grants` (customer_id, entitlement, source, transaction_id,
    /// expires_date, one row per grant); mirrors `ProductEntitlements`, `EntitlementSource.of`
    /// and `ProductEntitlements.grants`.
    func grantsSQL(_ sql: SQLContext, transactions: String, verdicts: String) -> [SQLStep] {
        let listed = policy.products.keys.sorted { $0.codePointPrecedes($1) }
        let policyProducts = sql.rows([("product_id", .text)], listed.map { [sql.literal($0)] })
        let policyGrants = sql.rows(
            [("product_id", .text), ("entitlement", .text)],
            listed.flatMap { product in
                Set(policy.entitlements(forProduct: product)).sorted { $0.codePointPrecedes($1) }.map {
                    [sql.literal(product), sql.literal($0)]
                }
            })
        let fallback = sql.rows(
            [("entitlement", .text)],
            Set(policy.unknownProductEntitlements).sorted { $0.codePointPrecedes($1) }.map { [sql.literal($0)] })
        let grandfathered = sql.rows(
            [("entitlement", .text)],
            Set(policy.grandfatheredEntitlements).sorted { $0.codePointPrecedes($1) }.map { [sql.literal($0)] })
        let rowGrants = sql.tables.productEntitlements
        return [
            SQLStep(
                name: "policy_products", spec: "§3", mirrors: "Policy.products (Policy/Policy.swift)",
                query: policyProducts),
            SQLStep(
                name: "product_grants", spec: "§8.12, §9 (row entitlements)",
                mirrors:
                    "Policy.granting, ProductEntitlements (Policy/Policy+RowEntitlements.swift, Rules/EntitlementRules.swift)",
                query: """
                    SELECT product_id, entitlement FROM (\(policyGrants)) AS listed
                    \(sql.unionDistinct)
                    SELECT rows_say.product_id, rows_say.entitlement FROM \(rowGrants) AS rows_say
                    WHERE NOT EXISTS (SELECT 1 FROM policy_products AS p WHERE p.product_id = rows_say.product_id)
                    """),
            SQLStep(
                name: "fallback_grants", spec: "§8.12",
                mirrors: "Policy.unknownProductEntitlements (Policy/Policy.swift)",
                query: fallback),
            SQLStep(
                name: "transaction_grants", spec: "§8.13, §9 (promotional)",
                mirrors: "EntitlementSource.of, ProductEntitlements.grants (Rules/EntitlementRules+Grants.swift)",
                query: """
                    SELECT t.customer_id, g.entitlement,
                        CASE
                            WHEN t.is_promotional THEN 'promotional'
                            WHEN t.through_grace THEN 'grace_period'
                            WHEN t.ownership_type = 'family_shared' THEN 'family_shared'
                            ELSE 'purchase'
                        END AS source,
                        t.transaction_id, t.ends_at AS expires_date
                    FROM \(transactions) AS t
                    JOIN \(verdicts) AS v ON v.customer_id = t.customer_id AND v.class <> 'excluded'
                    JOIN (
                        SELECT product_id, entitlement FROM product_grants
                        UNION ALL
                        SELECT unlisted.product_id, f.entitlement
                        FROM (SELECT DISTINCT product_id FROM \(transactions)) AS unlisted
                        CROSS JOIN fallback_grants AS f
                        WHERE NOT EXISTS (SELECT 1 FROM policy_products AS p WHERE p.product_id = unlisted.product_id)
                            AND NOT EXISTS (SELECT 1 FROM \(rowGrants) AS r WHERE r.product_id = unlisted.product_id)
                    ) AS g ON g.product_id = t.product_id
                    WHERE t.is_current
                    """),
            SQLStep(
                name: "grandfathered_grants", spec: "§8.13",
                mirrors: "ProductEntitlements.grants (Rules/EntitlementRules+Grants.swift)",
                query: """
                    SELECT v.customer_id, g.entitlement, 'grandfathered' AS source,
                        \(sql.null(.text)) AS transaction_id, \(sql.null(.timestamp)) AS expires_date
                    FROM \(verdicts) AS v CROSS JOIN (\(grandfathered)) AS g
                    WHERE v.class = 'grandfathered'
                    """),
        ]
    }
}
