/// The dry run's outputs: `compare.md`, `compare.csv` and `compare.html`. Deterministic:
/// the same inputs, policies and as-of give the same bytes.
public enum ComparisonReports {
    /// Differing customers listed by name in `compare.md` and `compare.html`.
    static let listed = 200

    public static func files(_ comparison: PolicyComparison) throws(GrandfatherError) -> [(String, [UInt8])] {
        [
            ("compare.md", Array(markdown(comparison).utf8)),
            ("compare.csv", csv(comparison)),
            ("compare.html", try TemplateLibrary.render(ComparisonPage(comparison), template: "compare")),
        ]
    }

    static func name(_ audit: Audit) -> String { audit.policy.name ?? "(unnamed policy)" }

    static func describe(_ policy: Policy) -> String {
        "\(policy.name ?? "(unnamed)") (sha256 \(policy.digest.prefix(12))): cutover \(policy.cutover.date.iso8601), "
            + "basis \(policy.cutover.basis.rawValue)"
    }

    static func markdown(_ comparison: PolicyComparison) -> String {
        let (a, b) = (comparison.a, comparison.b)
        var md = "# Grandfather dry run: two policies compared\n\n"
        md += "| | |\n| --- | --- |\n"
        md += "| A | \(MarkdownText.literal(describe(a.policy))) |\n"
        md += "| B | \(MarkdownText.literal(describe(b.policy))) |\n"
        md += "| as of | \(a.asOf.iso8601) |\n"
        md += "| customers | \(a.customers.count) |\n"
        md += "| rows read | \(a.rowsRead) (\(a.rowsRejected) rejected) |\n"
        md += "| customers treated differently | \(comparison.differences.count) |\n\n"
        if let warning = AppStoreSection.warning(a.appStore) {
            md += "**Warning: \(MarkdownText.literal(warning))**\n\n"
        }
        for line in AppStoreSection.lines(a.appStore) { md += MarkdownText.literal(line) + "\n\n" }

        md += "## Classes, A (rows) to B (columns)\n\n"
        let axis = CustomerClass.allCases
        md += "| A \\ B | " + axis.map(\.rawValue).joined(separator: " | ") + " |\n"
        md += "| --- |" + String(repeating: " ---: |", count: axis.count) + "\n"
        for from in axis {
            let cells = axis.map { String(comparison.matrix.count(from: from, to: $0)) }
            md += "| **\(from.rawValue)** | " + cells.joined(separator: " | ") + " |\n"
        }

        md += "\n## Revenue at stake moving between classes\n\n"
        if comparison.movements.isEmpty {
            md += "No paying customer changes class.\n"
        } else {
            md += "| from A | to B | paying customers | current subscriptions, latest price |\n"
            md += "| --- | --- | ---: | --- |\n"
            for movement in comparison.movements {
                md += "| \(movement.from.rawValue) | \(movement.to.rawValue) | \(movement.customers) | "
                md += "\(MarkdownText.literal(RevenueSection.amounts(movement.figures))) |\n"
            }
        }

        md += "\n## Flags gained and lost\n\n"
        if comparison.flagsGained.isEmpty && comparison.flagsLost.isEmpty {
            md += "No customer gains or loses a flag.\n"
        } else {
            md += "| flag | customers gaining it | customers losing it |\n| --- | ---: | ---: |\n"
            let gained = Dictionary(uniqueKeysWithValues: comparison.flagsGained)
            let lost = Dictionary(uniqueKeysWithValues: comparison.flagsLost)
            for flag in Set(gained.keys).union(lost.keys).sorted() {
                md += "| `\(flag)` | \(gained[flag] ?? 0) | \(lost[flag] ?? 0) |\n"
            }
        }

        md += "\n## Customers treated differently\n\n"
        md += "Class or entitlements differ; `compare.csv` lists every one.\n\n"
        md += "| customer | class A | class B | entitlements A | entitlements B | flags gained | flags lost |\n"
        md += "| --- | --- | --- | --- | --- | --- | --- |\n"
        for difference in comparison.differences.prefix(listed) {
            let cells = [
                difference.customerID, difference.classA.rawValue, difference.classB.rawValue,
                difference.entitlementsA.joined(separator: ", "), difference.entitlementsB.joined(separator: ", "),
                difference.flagsGained.joined(separator: ", "), difference.flagsLost.joined(separator: ", "),
            ]
            md += "| " + cells.map(MarkdownText.literal).joined(separator: " | ") + " |\n"
        }
        if comparison.differences.count > listed {
            md += "\nThe first \(listed) of \(comparison.differences.count) are listed.\n"
        }
        return md
    }

    /// Every customer treated differently, one row each; cells a spreadsheet would run as a
    /// formula are neutralised as in `customers.csv`.
    static func csv(_ comparison: PolicyComparison) -> [UInt8] {
        var csv = CSVText()
        csv.row([
            "customer_id", "class_a", "class_b", "entitlements_a", "entitlements_b", "flags_gained", "flags_lost",
        ])
        func list(_ items: [String]) -> String? { items.isEmpty ? nil : items.joined(separator: ";") }
        for difference in comparison.differences {
            csv.row([
                difference.customerID, difference.classA.rawValue, difference.classB.rawValue,
                list(difference.entitlementsA), list(difference.entitlementsB), list(difference.flagsGained),
                list(difference.flagsLost),
            ])
        }
        return csv.bytes
    }
}

/// What `compare.html` shows; the template escapes every value.
struct ComparisonPage {
    struct Row {
        var from: String
        var cells: [String]
    }

    struct Movement {
        var from, to, customers, amounts: String
    }

    struct FlagRow {
        var flag, gained, lost: String
    }

    struct Customer {
        var id, classA, classB, entitlementsA, entitlementsB, flagsGained, flagsLost: String
    }

    let styleSheet = Templates.styleSheet
    var policyA, policyB, asOf, customers, differing: String
    /// Set when the run read App Store content it did not verify.
    var trustWarning: String?
    var appStoreLines: [String]
    var columns: [String]
    var rows: [Row]
    var chart: Chart
    var movements: [Movement]
    var hasMovements: Bool
    var flags: [FlagRow]
    var hasFlags: Bool
    var differences: [Customer]
    var more: String?

    init(_ comparison: PolicyComparison) {
        policyA = ComparisonReports.describe(comparison.a.policy)
        policyB = ComparisonReports.describe(comparison.b.policy)
        asOf = comparison.a.asOf.iso8601
        customers = String(comparison.a.customers.count)
        differing = String(comparison.differences.count)
        trustWarning = AppStoreSection.warning(comparison.a.appStore)
        appStoreLines = AppStoreSection.lines(comparison.a.appStore)
        let axis = CustomerClass.allCases
        columns = axis.map(\.rawValue)
        rows = axis.map { from in
            Row(from: from.rawValue, cells: axis.map { String(comparison.matrix.count(from: from, to: $0)) })
        }
        // Per class, customers under A and under B, side by side.
        var bars: [(label: String, value: Int, style: String)] = []
        for customerClass in axis {
            let underA = axis.reduce(0) { $0 + comparison.matrix.count(from: customerClass, to: $1) }
            let underB = axis.reduce(0) { $0 + comparison.matrix.count(from: $1, to: customerClass) }
            bars.append(("\(customerClass.rawValue), A", underA, customerClass.rawValue))
            bars.append(("\(customerClass.rawValue), B", underB, customerClass.rawValue))
        }
        chart = Chart.bars(bars, caption: "Customers per class under policy A and policy B")
        movements = comparison.movements.map {
            Movement(
                from: $0.from.rawValue, to: $0.to.rawValue, customers: String($0.customers),
                amounts: RevenueSection.amounts($0.figures))
        }
        hasMovements = !movements.isEmpty
        let gained = Dictionary(uniqueKeysWithValues: comparison.flagsGained)
        let lost = Dictionary(uniqueKeysWithValues: comparison.flagsLost)
        flags = Set(gained.keys).union(lost.keys).sorted().map {
            FlagRow(flag: $0, gained: String(gained[$0] ?? 0), lost: String(lost[$0] ?? 0))
        }
        hasFlags = !flags.isEmpty
        differences = comparison.differences.prefix(ComparisonReports.listed).map {
            Customer(
                id: $0.customerID, classA: $0.classA.rawValue, classB: $0.classB.rawValue,
                entitlementsA: $0.entitlementsA.joined(separator: ", "),
                entitlementsB: $0.entitlementsB.joined(separator: ", "),
                flagsGained: $0.flagsGained.joined(separator: ", "), flagsLost: $0.flagsLost.joined(separator: ", "))
        }
        let remaining = comparison.differences.count - differences.count
        more = remaining > 0 ? String(remaining) : nil
    }
}
