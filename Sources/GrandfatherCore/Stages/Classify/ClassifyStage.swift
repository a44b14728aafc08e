/// Stage 3 of the pipeline: the ledger's customers, each with its verdict.
enum ClassifyStage {
    /// Takes the customers and their activities out of `ledger` and classifies them under
    /// `rules`; customers made for unlinked App Store subscriptions are marked first
    /// (SPEC §5 flags them: `unlinked_transactions`).
    static func classify(
        _ ledger: ShardedLedger, under rules: AuditRules, unlinked: Set<String>,
        serviceEntitlements: [String: Set<String>] = [:], hooks: TestHooks
    ) -> CustomerResults {
        let classifier = Classifier(rules, serviceEntitlements: serviceEntitlements)
        var (customers, activities) = ledger.finish()
        if !unlinked.isEmpty {
            for index in customers.indices where unlinked.contains(customers[index].id) {
                customers[index].isUnlinked = true
            }
        }
        hooks.reach(.midClassify)
        return CustomerResults(records: consume customers, activities: consume activities, classifier: classifier)
    }
}
