import Mustache

/// `report.html`: the reviewers' report, one self-contained file (inline CSS and SVG, no
/// script, no request), printable on A4 (SPEC §6). Deterministic like every report.
public enum ReportHTML {
    /// Customers listed per flag.
    static let listed = 100

    public static func render(_ audit: Audit) throws(GrandfatherError) -> [UInt8] {
        let page = ReportPage(audit)
        return try TemplateLibrary.render(page, template: "report")
    }
}

/// The parsed templates, shared: parsing once per process is enough.
enum TemplateLibrary {
    private static let library: Result<MustacheLibrary, GrandfatherError> = {
        var library = MustacheLibrary()
        MustacheContentTypes.register(ReportHTMLText(), named: ReportHTMLText.name)
        let pragma = "{{% CONTENT_TYPE: \(ReportHTMLText.name)}}"
        do {
            library.register(try MustacheTemplate(string: pragma + Templates.chart), named: "chart")
            library.register(try MustacheTemplate(string: pragma + Templates.report), named: "report")
            library.register(try MustacheTemplate(string: pragma + Templates.compare), named: "compare")
            return .success(library)
        } catch {
            return .failure(.internal("HTML template: \(error)"))
        }
    }()

    static func render(_ object: Any, template: String) throws(GrandfatherError) -> [UInt8] {
        let library = try library.get()
        guard let text = library.render(object, withTemplate: template) else {
            throw .internal("HTML template '\(template)' is not registered")
        }
        return Array(text.utf8)
    }
}

/// How the templates escape every `{{value}}`: the five characters HTML gives meaning to, as
/// swift-mustache's own HTML type does, and the controls that reorder text (`BidiControls`).
struct ReportHTMLText: MustacheContentType {
    static let name = "GRANDFATHER_HTML"

    private static let entities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]

    func escapeText(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let entity = Self.entities[scalar] {
                out += entity
            } else if BidiControls.contains(scalar) {
                out += BidiControls.shown(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// What `report.html` shows, as values the template prints (every one escaped there).
struct ReportPage {
    struct Fact {
        var label: String
        var value: String
    }

    struct InputRow {
        var path, kind, format, size, sha256, read, accepted, rejected, duplicates, superseded, sandbox: String
    }

    struct VersionChart {
        var platform: String
        var chart: Chart
    }

    struct FlagRow {
        var code, severity, count, explanation: String
    }

    struct Matrix {
        struct Row {
            var from: String
            var cells: [String]
        }
        var columns: [String]
        var rows: [Row]
    }

    struct FlagChanges {
        struct Row {
            var flag, added, removed: String
        }
        var rows: [Row]
    }

    struct RevenueRow {
        var name, customers, amounts: String
        var hasFX: Bool
        var converted: String
    }

    struct FX {
        var currency: String
        var note: String
    }

    struct FlagList {
        struct Entry {
            var id, customerClass, reason: String
        }
        var code, explanation, count: String
        var customers: [Entry]
        /// How many more there are, when not all are listed.
        var more: String?
    }

    /// The RevenueCat reconciliation, for a run that read subscriber responses.
    /// The stores' sales reports beside the customers found (`PopulationSection`).
    struct Population {
        struct Row {
            var label, copies, grandfathered, gap: String
        }

        struct Table {
            var heading: String
            var rows: [Row]
        }

        struct Store {
            var lines: [String]
            var tables: [Table]
            var explanation: String?
        }

        var warnings: [String]
        var stores: [Store]
        var empty: Bool

        init(_ audit: Audit) {
            let reconciliation = audit.paidCopies
            warnings = PopulationSection.warnings(audit.population)
            empty = reconciliation.isEmpty
            stores = reconciliation.stores.map { store in
                let lines = PopulationSection.lines(store, titles: audit.population.titles[store.store] ?? [:])
                guard !store.paidApps.isEmpty else { return Store(lines: lines, tables: [], explanation: nil) }
                let (months, countries) = PopulationSection.tables(store)
                let tables = [("month", months), ("country", countries)].filter { !$0.1.isEmpty }.map { heading, rows in
                    Table(
                        heading: heading,
                        rows: rows.map {
                            Row(
                                label: $0.label, copies: String($0.copies), grandfathered: String($0.grandfathered),
                                gap: String($0.gap))
                        })
                }
                return Store(lines: lines, tables: tables, explanation: PopulationSection.explanation(store.store))
            }
        }
    }

    struct Reconciliation {
        struct Row {
            var id, customerClass, flags, active, granted: String
        }
        var reconciled: String
        var flags: [FlagRow]
        var flagged: String
        var rows: [Row]
        var hasRows: Bool
        /// How many more flagged customers there are, when not all are listed.
        var more: String?
        var grants: String

        init(_ section: ReconciliationSection) {
            reconciled = String(section.reconciled)
            flags = section.counts.map {
                FlagRow(
                    code: $0.0.code, severity: $0.0.severity.rawValue, count: String($0.1),
                    explanation: $0.0.explanation)
            }
            flagged = String(section.flagged)
            rows = section.rows.map {
                Row(
                    id: $0.id, customerClass: $0.customerClass.rawValue,
                    flags: $0.flags.map(\.code).joined(separator: ", "),
                    active: ReconciliationSection.activeText($0.active),
                    granted: ReconciliationSection.grantsText($0.grants))
            }
            hasRows = !rows.isEmpty
            more = section.flagged > section.rows.count ? String(section.flagged - section.rows.count) : nil
            grants = String(section.grants)
        }
    }

    let styleSheet = Templates.styleSheet
    var policyName, policyDigest, asOf, customers, statusText, statusStyle, toolVersion: String
    var facts: [Fact]
    /// Set when the run read App Store content it did not verify.
    var trustWarning: String?
    /// The App Store lines of `summary.md`, when the run read App Store files.
    var appStoreLines: [String]
    /// The products whose type rests on weak evidence, one line each, as `validate` gives them.
    var productLines: [String]
    var inputs: [InputRow]
    var rowsRead, rowsAccepted, rowsRejected, rejectedFraction, maxRejectedFraction: String
    var classChart: Chart
    var cutoverDate, windowText, timelineNote: String
    var timeline: Chart
    var versionCharts: [VersionChart]
    var flags: [FlagRow]
    let decisionHeading = DecisionSection.heading
    var paywallLines: [String]
    var reviewLine: String
    var reviewFlags: [FlagRow]
    var hasReviewFlags: Bool
    var changesBasis: String
    var changesMatrix: Matrix?
    var changedFlags: FlagChanges?
    var revenueNote: String
    var revenue: [RevenueRow]
    var fx: FX?
    var reconciliation: Reconciliation?
    var population: Population?
    let listed = String(ReportHTML.listed)
    var flagLists: [FlagList]

    init(_ audit: Audit) {
        let policy = audit.policy
        policyName = policy.name ?? "(unnamed policy)"
        policyDigest = policy.digest
        asOf = audit.asOf.iso8601
        customers = String(audit.customers.count)
        toolVersion = ToolVersion.current
        if audit.exceedsRejectionThreshold {
            statusText = "Data-quality threshold exceeded: latest still points to the last good run"
            statusStyle = "exceeded"
        } else {
            statusText = "Status: ok"
            statusStyle = "ok"
        }
        let window = Self.duration(policy.edgeWindowSeconds)
        facts = [
            Fact(label: "as of", value: audit.asOf.iso8601),
            Fact(label: "policy", value: "\(policyName) (sha256 \(policy.digest.prefix(12)))"),
        ]
        if let mapping = audit.mapping {
            facts.append(Fact(label: "mapping", value: "\(mapping.path) (sha256 \(mapping.sha256.prefix(12)))"))
        }
        facts += [
            Fact(label: "cutover", value: "\(policy.cutover.date.iso8601), basis \(policy.cutover.basis.rawValue)"),
            Fact(label: "cutover versions", value: policy.cutover.versionsText),
            Fact(label: "edge window", value: "\(window) either side of the cutover"),
            Fact(label: "customers", value: customers),
        ]
        trustWarning = AppStoreSection.warning(audit.appStore)
        appStoreLines = AppStoreSection.lines(audit.appStore)
        productLines = ProductFindings.lines(audit.productFindings)
        inputs = audit.inputs.map {
            InputRow(
                path: $0.path, kind: $0.kind.rawValue, format: $0.format.rawValue, size: String($0.sizeBytes),
                sha256: $0.sha256, read: String($0.rowsRead), accepted: String($0.rowsAccepted),
                rejected: String($0.rowsRejected), duplicates: String($0.exactDuplicates),
                superseded: String($0.superseded), sandbox: String($0.sandboxRows))
        }
        rowsRead = String(audit.rowsRead)
        rowsAccepted = String(audit.rowsAccepted)
        rowsRejected = String(audit.rowsRejected)
        rejectedFraction = Fraction.format(audit.rejectedFraction)
        maxRejectedFraction = Fraction.format(policy.maxRejectedFraction)
        classChart = Chart.bars(
            audit.classCounts.map { ($0.0.rawValue, $0.1, $0.0.rawValue) }, caption: "Customers per class")

        var days = PurchaseDays()
        var versions = VersionCounts()
        var lists = [[FlagList.Entry]](repeating: [], count: Flag.allCases.count)
        audit.customers.forEachVerdict { customer, verdict, _ in
            if let purchased = customer.originalPurchaseDate, customer.environment == .production {
                days.add(purchased, cutover: policy.cutover.date)
            }
            if let version = customer.originalAppVersion, let platform = customer.platform,
                customer.environment == .production
            {
                versions.add(version, platform: platform)
            }
            verdict.flags.forEach { flag in
                let index = Int(flag.ordinal)
                guard lists[index].count < ReportHTML.listed else { return }
                lists[index].append(
                    FlagList.Entry(
                        id: customer.id, customerClass: verdict.customerClass.rawValue,
                        reason: ClassReason.text(customer, verdict, policy: policy)))
            }
        }
        cutoverDate = policy.cutover.date.iso8601
        windowText = window
        timeline = days.chart(cutover: policy.cutover.date, windowSeconds: policy.edgeWindowSeconds)
        timelineNote =
            "Production customers by the day of their original purchase; day boundaries fall at the cutover's "
            + "time of day. Bars left of the dashed line bought before the cutover."
        versionCharts = versions.charts(cutover: policy.cutover).map {
            VersionChart(platform: $0.0.rawValue, chart: $0.1)
        }
        flags = audit.flagCounts.map {
            FlagRow(
                code: $0.0.code, severity: $0.0.severity.rawValue, count: String($0.1), explanation: $0.0.explanation)
        }
        // Markdown's code spans, plain text here.
        paywallLines = DecisionSection.paywallLines(audit).map { $0.replacingOccurrences(of: "`", with: "") }
        reviewLine = DecisionSection.reviewLine(audit).replacingOccurrences(of: "`", with: "")
        reviewFlags = DecisionSection.reviewFlags(audit).map {
            FlagRow(
                code: $0.0.code, severity: $0.0.severity.rawValue, count: String($0.1), explanation: $0.0.explanation)
        }
        hasReviewFlags = !reviewFlags.isEmpty
        flagLists = audit.flagCounts.filter { $0.1 > 0 }.map { flag, count in
            let entries = lists[Int(flag.ordinal)]
            return FlagList(
                code: flag.code, explanation: flag.explanation, count: String(count), customers: entries,
                more: count > entries.count ? String(count - entries.count) : nil)
        }

        let changes = audit.changes
        changesBasis = ChangesSection.basis(changes).replacingOccurrences(of: "`", with: "")
        if changes.wasCompared {
            let axis = ClassMatrix.axis
            changesMatrix = Matrix(
                columns: axis.map(ClassMatrix.label),
                rows: axis.map { from in
                    Matrix.Row(
                        from: ClassMatrix.label(from),
                        cells: axis.map { String(changes.matrix.count(from: from, to: $0)) })
                })
            let added = Dictionary(uniqueKeysWithValues: changes.flagsAdded)
            let removed = Dictionary(uniqueKeysWithValues: changes.flagsRemoved)
            let codes = Set(added.keys).union(removed.keys).sorted()
            if !codes.isEmpty {
                changedFlags = FlagChanges(
                    rows: codes.map {
                        FlagChanges.Row(flag: $0, added: String(added[$0] ?? 0), removed: String(removed[$0] ?? 0))
                    })
            }
        }

        revenueNote = RevenueSection.explanation
        let rates = policy.exchangeRates
        fx = rates.map { FX(currency: $0.currency, note: RevenueSection.ratesNote($0)) }
        revenue = (audit.revenue.classes + [(nil, audit.revenue.total)]).map { customerClass, figures in
            RevenueRow(
                name: customerClass?.rawValue ?? "all", customers: String(figures.customers),
                amounts: RevenueSection.amounts(figures), hasFX: rates != nil,
                converted: rates.map { RevenueSection.converted(figures, $0) } ?? "")
        }
        reconciliation = ReconciliationSection(audit, listed: ReportHTML.listed).map(Reconciliation.init)
        population = audit.population.isEmpty ? nil : Population(audit)
    }

    private static func duration(_ seconds: Int64) -> String {
        let minutes = seconds % 3600 / 60
        return "\(seconds / 3600) h" + (minutes == 0 ? "" : " \(minutes) min")
    }

}
