/// The SQL twin of `ClassRules.swift` (SPEC §4, §8.9, §8.10): the policy's basis, then each
/// class in its order.
extension AuditRules {
    /// `is_grandfathered` and `class` of each customer of `answered` (its answers and
    /// activity beside it); mirrors `isGrandfathered(byVersion:byDate:)` and
    /// `customerClass(grandfathered:anyCurrent:hasDurable:)`.
    func classesSQL(_ sql: SQLContext, answered: String) -> SQLStep {
        let version = "COALESCE(by_version, FALSE)"
        let date = "COALESCE(by_date, FALSE)"
        let basis: String
        switch self.basis {
        case .version: basis = version
        case .date: basis = date
        case .either: basis = "(\(version) OR \(date))"
        case .both: basis = "(\(version) AND \(date))"
        }
        let query = """
            SELECT
                grandfathering.*,
                CASE
                    WHEN environment = 'sandbox' THEN 'excluded'
                    WHEN is_grandfathered THEN 'grandfathered'
                    WHEN any_current THEN 'subscriber'
                    WHEN has_durable THEN 'lapsed'
                    ELSE 'new'
                END AS class
            FROM (
                SELECT \(answered).*, (environment <> 'sandbox' AND \(basis)) AS is_grandfathered
                FROM \(answered)
            ) AS grandfathering
            """
        return SQLStep(
            name: "classes", spec: "§4, §8.9, §8.10",
            mirrors: "AuditRules.excluded, isGrandfathered, customerClass (Rules/ClassRules.swift)", query: query)
    }
}
