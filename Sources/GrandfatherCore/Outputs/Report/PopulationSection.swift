/// How the reports say what the stores' sales reports counted and how many buyers the audit
/// found (`PopulationReconciliation`): the same sentences in `summary.md`, `report.html` and
/// `validate`, and the tables by month and by country.
public enum PopulationSection {
    /// One line of a table: a month or a country, with its copies, customers and gap.
    public struct Row: Sendable, Equatable {
        public var label: String
        public var copies: Int
        public var grandfathered: Int
        public var gap: Int { copies - grandfathered }
    }

    /// A store's sentences: what was counted, what was found, the gap.
    public static func lines(_ store: PopulationReconciliation.Store, titles: [String: String]) -> [String] {
        func named(_ app: String) -> String { titles[app].map { "\(app) (\($0))" } ?? app }
        var lines: [String] = []
        let covered = store.months.map {
            $0.lowerBound == $0.upperBound ? $0.lowerBound : "\($0.lowerBound) to \($0.upperBound)"
        }
        guard !store.paidApps.isEmpty else {
            lines.append(
                "\(store.store.title) sales reports count copies of \(store.apps.count) apps "
                    + "(\(store.apps.map(named).joined(separator: ", "))): name the paid app in the policy's "
                    + "sales.paid_app to set its copies against the customers found.")
            return lines
        }
        let before = store.paidBefore
        lines.append(
            "\(store.store.title) sales reports of \(store.paidApps.map(named).joined(separator: " and "))"
                + "\(covered.map { ", \($0)" } ?? ""): "
                + (before.net < 0
                    ? "\(counted(before.paid, "paid copy", "paid copies")) and "
                        + "\(counted(before.returned, "return", "returns")) before the cutover"
                    : "\(counted(before.net, "paid copy", "paid copies")) before the cutover, net of "
                        + "\(counted(before.returned, "return", "returns"))")
                + " (and \(counted(before.free, "copy", "copies")) "
                + "at no price); \(counted(store.grandfathered, "customer", "customers")) \(store.store.customers) "
                + "grandfathered; \(store.gap.map(gapText) ?? overReturned(before)).")
        if store.spanningCutover != PopulationReconciliation.Units() {
            lines.append(
                "\(counted(store.spanningCutover.net, "paid copy", "paid copies")) lie in report periods that hold "
                    + "the cutover and are counted on neither side: give daily reports for the cutover's month to split them."
            )
        }
        if store.after.net > 0 {
            lines.append("\(counted(store.after.net, "paid copy", "paid copies")) were sold after the cutover.")
        }
        return lines
    }

    /// What is said in place of a gap when the reports' returns outnumber their paid copies.
    static func overReturned(_ before: PopulationReconciliation.Units) -> String {
        "the reports return \(counted(-before.net, "copy", "copies")) more than they sell, copies sold before the "
            + "first report given: they count no buyers to set the customers against (give the reports from the "
            + "app's first sale)"
    }

    /// The gap, as a reader wants it said.
    static func gapText(_ gap: Int) -> String {
        if gap > 0 { return "\(counted(gap, "paid copy", "paid copies")) with no customer found" }
        if gap < 0 {
            return "\(counted(-gap, "customer", "customers")) more grandfathered than the reports count paid copies"
        }
        return "every paid copy has a customer"
    }

    /// What usually explains a gap, per store.
    public static func explanation(_ store: SalesPopulation.Store) -> String {
        switch store {
        case .appStore:
            return "Paid copies with no customer found are usually buyers who have not opened the app since it went "
                + "free (no app transaction or receipt of theirs reached the data), who deleted it, or whose receipt "
                + "was never refreshed. More customers than copies usually means Family Sharing (one purchase, "
                + "several members), copies sold before the first report given, or customers grandfathered by a "
                + "version basis whose purchase no report covers."
        case .googlePlay:
            return "Google Play keeps no per-user record of a paid-app purchase: a buyer is found only through an "
                + "order number they claim or a licensing verdict stored while the app was paid."
        }
    }

    /// Warnings about the reports themselves: the same report twice, overlapping periods.
    public static func warnings(_ population: SalesPopulation) -> [String] {
        var lines: [String] = []
        for (path, file) in population.files.sorted(by: { $0.key < $1.key }) {
            if let first = file.repeats { lines.append("\(path) holds the same report as \(first): counted once.") }
        }
        for group in population.overlappingFiles {
            // A group is named by its first few files: a line per group, of bounded length.
            let named = group.prefix(group.count > 4 ? 3 : 4)
            let files =
                group.count > 4
                ? named.joined(separator: ", ") + " and \(group.count - named.count) more reports"
                : named.dropLast().joined(separator: ", ") + " and " + (named.last ?? "")
            lines.append(
                "\(files) cover overlapping periods: copies in more than one are counted more than once "
                    + "(give either the daily or the monthly reports of a month, not both).")
        }
        return lines
    }

    /// A store's cells summed by month, then by country. Customers who bought in months the
    /// reports do not cover are summed into one row before and one after them.
    public static func tables(_ store: PopulationReconciliation.Store) -> (months: [Row], countries: [Row]) {
        var months: [String: Row] = [:]
        var countries: [String: Row] = [:]
        func add(_ cell: PopulationReconciliation.Cell, to rows: inout [String: Row], as label: String) {
            rows[label, default: Row(label: label, copies: 0, grandfathered: 0)].copies += cell.copies
            rows[label, default: Row(label: label, copies: 0, grandfathered: 0)].grandfathered += cell.grandfathered
        }
        for cell in store.cells {
            var month = cell.month.isEmpty ? "no purchase date" : cell.month
            if let covered = store.months, !cell.month.isEmpty {
                if cell.month < covered.lowerBound { month = "before \(covered.lowerBound)" }
                if cell.month > covered.upperBound { month = "after \(covered.upperBound)" }
            }
            add(cell, to: &months, as: month)
            add(cell, to: &countries, as: cell.country.isEmpty ? "unknown" : cell.country)
        }
        // "before …" first, then the months, then "after …" and "no purchase date".
        func rank(_ label: String) -> Int {
            label.hasPrefix("before") ? 0 : label.first?.isNumber == true ? 1 : label.hasPrefix("after") ? 2 : 3
        }
        return (
            months.values.sorted { (rank($0.label), $0.label) < (rank($1.label), $1.label) },
            countries.values.sorted { $0.label < $1.label }
        )
    }

    /// The section of `summary.md`; empty when the run read no sales report.
    static func markdown(_ audit: Audit) -> String {
        guard !audit.population.isEmpty else { return "" }
        let reconciliation = audit.paidCopies
        var md = "## Paid copies and the customers found\n\n"
        md += "What the stores' own sales reports count, set beside the customers the audit grandfathered "
        md += "(copies of report periods that end by the cutover, net of returns).\n\n"
        for line in warnings(audit.population) { md += "**Warning: \(MarkdownText.literal(line))**\n\n" }
        if reconciliation.isEmpty { md += "The sales reports given count no copies of an app.\n\n" }
        for store in reconciliation.stores {
            for line in lines(store, titles: audit.population.titles[store.store] ?? [:]) {
                md += MarkdownText.literal(line) + "\n\n"
            }
            guard !store.paidApps.isEmpty else { continue }
            let (months, countries) = tables(store)
            for (heading, rows) in [("month", months), ("country", countries)] where !rows.isEmpty {
                md += "| \(heading) | paid copies | customers grandfathered | no customer found |\n"
                md += "| --- | ---: | ---: | ---: |\n"
                for row in rows {
                    md += "| \(MarkdownText.literal(row.label)) | \(row.copies) | \(row.grandfathered) | \(row.gap) |\n"
                }
                md += "\n"
            }
            md += MarkdownText.literal(explanation(store.store)) + "\n\n"
        }
        return md
    }

    /// What `validate` says of each sales report: what it counted, what it could not use.
    public static func validationLines(_ population: SalesPopulation) -> [String] {
        population.files.sorted(by: { $0.key < $1.key }).map { path, file in
            if let first = file.repeats { return "\(path): the same report as \(first), counted once" }
            var line =
                "\(path): counted \(counted(file.countedRows, "row", "rows")) of app copies "
                + "(\(file.copies.paid) paid, \(file.copies.free) at no price, \(file.copies.returned) returned)"
            if let days = file.days { line += " from \(days.lowerBound) to \(days.upperBound)" }
            let skipped = file.notCounted.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            if !skipped.isEmpty {
                line +=
                    "; could not use "
                    + skipped.map { counted($0.value, "\($0.key) row", "\($0.key) rows") }.joined(separator: ", ")
            }
            return line
        }
    }

    private static func counted(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }
}
