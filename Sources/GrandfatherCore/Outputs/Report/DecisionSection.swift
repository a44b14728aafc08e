/// What the summaries open on after the classes (issue 52): the customers the app would show
/// its paywall after the switch, and the customers a person must decide on (the `review`
/// flags). The same sentences in `summary.md` and `report.html`.
enum DecisionSection {
    static let heading = "Who would see the paywall, and who needs a person"

    /// Who would see the paywall: the customers entitled to nothing, and, when RevenueCat was
    /// asked, the grandfathered customers it grants nothing to.
    static func paywallLines(_ audit: Audit) -> [String] {
        let counts = Dictionary(uniqueKeysWithValues: audit.classCounts)
        let lapsed = counts[.lapsed] ?? 0
        let new = counts[.new] ?? 0
        var lines = [
            "\(counted(lapsed + new, "customer holds", "customers hold")) no entitlement as of \(audit.asOf.iso8601) "
                + "and would see the paywall: \(lapsed) lapsed (a purchase or subscription of theirs has ended) and "
                + "\(new) new (they never held one)."
        ]
        guard audit.reconciled else {
            lines.append(
                "No RevenueCat subscriber responses were given, so whether the app grants the grandfathered "
                    + "customers their entitlements was not checked.")
            return lines
        }
        let notGranted = audit.flagCounts.first { $0.0 == .grandfatheredNotGranted }?.1 ?? 0
        lines.append(
            notGranted == 0
                ? "RevenueCat has a grandfathered entitlement active for every grandfathered customer it answered for."
                : "\(counted(notGranted, "grandfathered customer has", "grandfathered customers have")) none of the "
                    + "grandfathered entitlements active in RevenueCat (`grandfathered_not_granted`): they paid for "
                    + "the app and it would show them the paywall. `grants.csv` holds the grants that would mend it.")
        return lines
    }

    /// How many customers carry a `review` flag.
    static func reviewLine(_ audit: Audit) -> String {
        audit.reviewCustomers == 0
            ? "No customer carries a `review` flag."
            : "\(counted(audit.reviewCustomers, "customer carries", "customers carry")) a `review` flag: a person "
                + "should decide on each. `customers.csv` and the snapshot list them all."
    }

    /// The `review` flags some customer carries, with their counts, in catalog order.
    static func reviewFlags(_ audit: Audit) -> [(Flag, Int)] {
        audit.flagCounts.filter { $0.0.severity == .review && $0.1 > 0 }
    }

    static func markdown(_ audit: Audit) -> String {
        var md = "## \(heading)\n\n"
        for line in paywallLines(audit) { md += line + "\n\n" }
        md += reviewLine(audit) + "\n\n"
        let flags = reviewFlags(audit)
        guard !flags.isEmpty else { return md }
        md += "| flag | customers | meaning |\n| --- | ---: | --- |\n"
        for (flag, count) in flags { md += "| `\(flag.code)` | \(count) | \(flag.explanation) |\n" }
        return md + "\n"
    }

    private static func counted(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }
}
