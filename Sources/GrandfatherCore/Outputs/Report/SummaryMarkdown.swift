/// `summary.md`: the audit for a person reading a terminal or a code review (SPEC §6).
///
/// Deterministic like every report: no clock, no run id, every number formatted explicitly.
public enum SummaryMarkdown {
    /// Renders the document: what a reviewer decides on first (the classes, who would see the
    /// paywall or needs a person, the revenue at stake, the paid copies beside the customers
    /// found), then the changes and the flags, and the run's own record (policy, inputs,
    /// digests, data quality) last (issue 52).
    public static func render(_ audit: Audit) -> [UInt8] {
        var md = ""
        let policy = audit.policy
        md += "# Grandfather audit\n\n"
        if audit.exceedsRejectionThreshold {
            md += "**Status: data-quality threshold exceeded.** \(audit.rowsRejected) of \(audit.rowsRead) rows were "
            md += "rejected (\(Fraction.format(audit.rejectedFraction)) > max_rejected_fraction "
            md += "\(Fraction.format(policy.maxRejectedFraction))); this run is kept for inspection and `latest` "
            md += "still points to the last good run.\n\n"
        } else {
            md += "Status: ok.\n\n"
        }
        if let warning = AppStoreSection.warning(audit.appStore) {
            md += "**Warning: \(MarkdownText.literal(warning))**\n\n"
        }
        md += "\(MarkdownText.literal(policy.name ?? "(unnamed policy)")), as of \(audit.asOf.iso8601): "
        md += "\(audit.customers.count) customers. The run's record is at the end.\n\n"

        md += "## Classes\n\n| class | customers |\n| --- | ---: |\n"
        for (customerClass, count) in audit.classCounts { md += "| \(customerClass.rawValue) | \(count) |\n" }
        md += "\n`excluded` customers (sandbox records) are not counted in the four classes.\n\n"
        md += DecisionSection.markdown(audit)
        md += RevenueSection.markdown(audit.revenue, rates: policy.exchangeRates)
        md += PopulationSection.markdown(audit)
        md += ChangesSection.markdown(audit.changes) + "\n"

        md += "## Flags\n\n| flag | severity | customers | meaning |\n| --- | --- | ---: | --- |\n"
        for (flag, count) in audit.flagCounts {
            md += "| `\(flag.code)` | \(flag.severity.rawValue) | \(count) | \(flag.explanation) |\n"
        }
        md += "\n" + ProductFindings.markdown(audit.productFindings)

        md += "## The run\n\n| | |\n| --- | --- |\n"
        md += "| as of | \(audit.asOf.iso8601) |\n"
        md +=
            "| policy | \(MarkdownText.literal(policy.name ?? "(unnamed)")) (sha256 `\(policy.digest.prefix(12))`) |\n"
        if let mapping = audit.mapping {
            md += "| mapping | \(MarkdownText.literal(mapping.path)) (sha256 `\(mapping.sha256.prefix(12))`) |\n"
        }
        md += "| cutover | \(policy.cutover.date.iso8601), basis \(policy.cutover.basis.rawValue) |\n"
        md += "| cutover versions | \(MarkdownText.literal(policy.cutover.versionsText)) |\n"
        md +=
            "| edge window | \(policy.edgeWindowSeconds / 3600) h\(policy.edgeWindowSeconds % 3600 == 0 ? "" : " \(policy.edgeWindowSeconds % 3600 / 60) min") |\n"
        md += "| customers | \(audit.customers.count) |\n"
        md += "| tool | grandfather \(ToolVersion.current) |\n\n"

        md += "## Data quality\n\n"
        md +=
            "| file | kind | format | rows read | accepted | rejected | exact duplicates | superseded | sandbox rows |\n"
        md += "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        for input in audit.inputs {
            md +=
                "| \(MarkdownText.literal(input.path)) | \(input.kind.rawValue) | \(input.format.rawValue) | \(input.rowsRead) | "
            md += "\(input.rowsAccepted) | \(input.rowsRejected) | \(input.exactDuplicates) | \(input.superseded) | "
            md += "\(input.sandboxRows) |\n"
        }
        md += "| **all** | | | \(audit.rowsRead) | \(audit.rowsAccepted) | \(audit.rowsRejected) | "
        md +=
            "\(audit.inputs.reduce(0) { $0 + $1.exactDuplicates }) | \(audit.inputs.reduce(0) { $0 + $1.superseded }) | "
        md += "\(audit.inputs.reduce(0) { $0 + $1.sandboxRows }) |\n\n"
        md +=
            "Every file: rows read = accepted + rejected (exact duplicates, superseded deliveries and sandbox rows are "
        md += "among the accepted). Rejected fraction \(Fraction.format(audit.rejectedFraction)) "
        md += "(max \(Fraction.format(policy.maxRejectedFraction))). Each rejected row is listed in `rejected.csv`.\n"
        for line in AppStoreSection.lines(audit.appStore) { md += "\n" + MarkdownText.literal(line) + "\n" }
        if let line = MergedIDsSection.line(audit) { md += "\n" + line + "\n" }
        return Array(md.utf8)
    }

}
