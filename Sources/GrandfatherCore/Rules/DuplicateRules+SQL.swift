/// The SQL twin of `DuplicateRules.swift` (SPEC §8.23): the customers a conflicting duplicate
/// flags. The rows are compared by the warehouse's columns of `DuplicateRules.Field`, so a
/// field added to the rule is compared here too; `fact_sources` is no field, so copies that
/// differ only in where a fact came from are exact duplicates, as for the Swift engine.
extension DuplicateRules {
    /// The columns the twin compares: `Field`'s, in its order.
    static let columns = Field.allCases.map(\.column)

    /// `conflicting_customers`: every customer a row of an id names, where the rows of that id
    /// in `facts` hold more than one distinct content. `facts` holds the production rows of
    /// the ids that may repeat, marked `may_repeat` (their ids' fingerprints repeat), beside
    /// the current ones; mirrors `sameContent`.
    static func conflictingCustomersSQL(facts: String) -> SQLStep {
        SQLStep(
            name: "conflicting_customers", spec: "§8.23",
            mirrors:
                "DuplicateRules.sameContent (Rules/DuplicateRules.swift), as TransactionFingerprints.settle weighs it (Stages/Classify/TransactionFingerprints.swift)",
            query: """
                SELECT DISTINCT f.customer_id
                FROM \(facts) AS f
                JOIN (
                    SELECT transaction_id FROM (
                        SELECT DISTINCT \(columns.joined(separator: ", ")) FROM \(facts) WHERE may_repeat
                    ) AS variants
                    GROUP BY transaction_id
                    HAVING COUNT(*) > 1
                ) AS conflicting ON conflicting.transaction_id = f.transaction_id
                """)
    }
}
