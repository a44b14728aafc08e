/// What the reports say of the customer ids merged onto another (RevenueCat's webhook
/// events): one line in `summary.md` and `validate`'s output, and an object in
/// `summary.json`, present only when a merge happened. The ids themselves are in the
/// snapshot's `merged_ids`.
public enum MergedIDsSection {
    /// The counts the reports give.
    struct Counts: Encodable, Equatable {
        /// Ids merged onto another customer.
        var ids: Int
        /// The customers they were merged onto.
        var customers: Int
        var aliases: Int
        var transfers: Int
    }

    /// The counts, `nil` when the run merged nothing.
    static func counts(_ audit: Audit) -> Counts? {
        let merged = audit.mergedIDs
        guard !merged.isEmpty else { return nil }
        let aliases = merged.filter { $0.how == .alias }.count
        return Counts(
            ids: merged.count, customers: Set(merged.map(\.customerID)).count, aliases: aliases,
            transfers: merged.count - aliases)
    }

    /// The summary's line, or `nil` when the run merged nothing.
    public static func line(_ audit: Audit) -> String? {
        guard let counts = counts(audit) else { return nil }
        return "Customer ids merged by RevenueCat's webhook events: \(counts.ids) onto \(counts.customers) "
            + "customers (\(counts.aliases) as aliases, \(counts.transfers) by transfers); every record of a "
            + "merged id counts for its customer, and an audit's snapshot lists each in `merged_ids`."
    }
}
