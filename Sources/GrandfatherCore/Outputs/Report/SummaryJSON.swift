import Foundation

/// `summary.json`: counts per class and flag, data quality per file (SPEC §6), for machines.
///
/// Holds nothing that describes the run itself (no clock, no run id, no timings), so the
/// same inputs, policy and as-of give the same bytes.
public enum SummaryJSON {
    struct Document: Encodable {
        var schema = "grandfather.summary/1"
        var status: String
        var toolVersion: String
        var asOf: String
        var policy: PolicyInfo
        /// Present when the run read files through a mapping (`--map`).
        var mapping: [String: String]?
        var customers: Int
        var classes: [String: Int]
        var flags: [String: FlagInfo]
        var dataQuality: DataQuality
        var changesSincePreviousRun: Changes
        var revenueAtStake: Revenue
        /// Present when the run read App Store files or treated signatures otherwise than by default.
        var appStore: AppStoreSummaryJSON?
        /// Present when RevenueCat's webhook events merged customer ids.
        var mergedIDs: MergedIDsSection.Counts?
        /// Present when a product's type rests on weak evidence (`ProductFindings`).
        var productsToSettle: [ProductFindings.Finding]?
        /// Present when the run read a store's sales report.
        var salesPopulation: PopulationJSON?

        enum CodingKeys: String, CodingKey {
            case salesPopulation = "sales_population"
            case schema, status, customers, classes, flags, policy, mapping
            case productsToSettle = "products_to_settle"
            case appStore = "app_store"
            case mergedIDs = "merged_ids"
            case toolVersion = "tool_version"
            case asOf = "as_of"
            case dataQuality = "data_quality"
            case changesSincePreviousRun = "changes_since_previous_run"
            case revenueAtStake = "revenue_at_stake"
        }
    }

    /// Revenue at stake per class; amounts are decimal strings, exact (never binary floats).
    struct Revenue: Encodable {
        struct Figures: Encodable {
            var customers: Int
            var byCurrency: [String: String]
            /// In the policy's reporting currency, when it has an `fx` table.
            var converted: Converted?

            struct Converted: Encodable {
                var currency: String
                var amount: String
                var notConverted: [String: String]

                enum CodingKeys: String, CodingKey {
                    case currency, amount
                    case notConverted = "not_converted"
                }
            }

            enum CodingKeys: String, CodingKey {
                case customers, converted
                case byCurrency = "by_currency"
            }

            init(_ figures: RevenueAtStake.Figures, rates: ExchangeRates?) {
                customers = figures.customers
                byCurrency = figures.byCurrency.mapValues(RevenueSection.amount)
                if let rates {
                    let (amount, unconverted) = figures.converted(rates)
                    converted = Converted(
                        currency: rates.currency, amount: RevenueSection.amount(RevenueSection.rounded(amount)),
                        notConverted: Dictionary(
                            uniqueKeysWithValues: unconverted.map { ($0.0, RevenueSection.amount($0.1)) }))
                }
            }
        }

        var note = RevenueSection.explanation
        var classes: [String: Figures]
        var total: Figures

        init(_ revenue: RevenueAtStake, rates: ExchangeRates?) {
            classes = Dictionary(
                uniqueKeysWithValues: revenue.classes.map { ($0.0.rawValue, Figures($0.1, rates: rates)) })
            total = Figures(revenue.total, rates: rates)
        }
    }

    struct PolicyInfo: Encodable {
        var name: String?
        var sha256: String
        var cutoverDate: String
        var basis: String

        enum CodingKeys: String, CodingKey {
            case name, sha256, basis
            case cutoverDate = "cutover_date"
        }
    }

    /// What changed since the previous run; counts only (the snapshot lists customers).
    struct Changes: Encodable {
        /// `first_run`, `compared` or `not_compared`.
        var status: String
        var note: String
        var previousRunID: String?
        var customersChanged: Int?
        /// Customers by class: previous run's class, then this run's (`absent`: not in that run).
        var classMatrix: [String: [String: Int]]?
        var flagsAdded: [String: Int]?
        var flagsRemoved: [String: Int]?

        enum CodingKeys: String, CodingKey {
            case status, note
            case previousRunID = "previous_run_id"
            case customersChanged = "customers_changed"
            case classMatrix = "class_matrix"
            case flagsAdded = "flags_added"
            case flagsRemoved = "flags_removed"
        }

        init(_ changes: ChangeSet) {
            note = ChangesSection.basis(changes)
            switch changes.basis {
            case .firstRun: status = "first_run"
            case .unreadable: status = "not_compared"
            case .compared(_, let runID):
                status = "compared"
                previousRunID = runID
                customersChanged = changes.changes.count
                var matrix: [String: [String: Int]] = [:]
                for from in ClassMatrix.axis {
                    var row: [String: Int] = [:]
                    for to in ClassMatrix.axis { row[ClassMatrix.label(to)] = changes.matrix.count(from: from, to: to) }
                    matrix[ClassMatrix.label(from)] = row
                }
                classMatrix = matrix
                flagsAdded = Dictionary(uniqueKeysWithValues: changes.flagsAdded)
                flagsRemoved = Dictionary(uniqueKeysWithValues: changes.flagsRemoved)
            }
        }
    }

    struct FlagInfo: Encodable {
        var customers: Int
        var severity: String
    }

    struct DataQuality: Encodable {
        var rowsRead: Int
        var rowsAccepted: Int
        var rowsRejected: Int
        var rejectedFraction: String
        var maxRejectedFraction: String
        var thresholdExceeded: Bool
        /// Each input's accounting, with the same keys as `runs.inputs_json`.
        var files: [InputReport]

        enum CodingKeys: String, CodingKey {
            case files
            case rowsRead = "rows_read"
            case rowsAccepted = "rows_accepted"
            case rowsRejected = "rows_rejected"
            case rejectedFraction = "rejected_fraction"
            case maxRejectedFraction = "max_rejected_fraction"
            case thresholdExceeded = "threshold_exceeded"
        }
    }

    /// Renders the document: sorted keys, two-space indent, a final newline.
    public static func render(_ audit: Audit) throws(GrandfatherError) -> [UInt8] {
        var classes: [String: Int] = [:]
        for (customerClass, count) in audit.classCounts { classes[customerClass.rawValue] = count }
        var flags: [String: FlagInfo] = [:]
        for (flag, count) in audit.flagCounts {
            flags[flag.code] = FlagInfo(customers: count, severity: flag.severity.rawValue)
        }
        let document = Document(
            status: audit.exceedsRejectionThreshold ? "data_quality_threshold_exceeded" : "ok",
            toolVersion: ToolVersion.current,
            asOf: audit.asOf.iso8601,
            policy: PolicyInfo(
                name: audit.policy.name, sha256: audit.policy.digest, cutoverDate: audit.policy.cutover.date.iso8601,
                basis: audit.policy.cutover.basis.rawValue),
            mapping: audit.mapping.map { ["path": $0.path, "sha256": $0.sha256] },
            customers: audit.customers.count,
            classes: classes,
            flags: flags,
            dataQuality: DataQuality(
                rowsRead: audit.rowsRead, rowsAccepted: audit.rowsAccepted, rowsRejected: audit.rowsRejected,
                rejectedFraction: Fraction.format(audit.rejectedFraction),
                maxRejectedFraction: Fraction.format(audit.policy.maxRejectedFraction),
                thresholdExceeded: audit.exceedsRejectionThreshold,
                files: audit.inputs),
            changesSincePreviousRun: Changes(audit.changes),
            revenueAtStake: Revenue(audit.revenue, rates: audit.policy.exchangeRates),
            appStore: audit.appStore.map(AppStoreSummaryJSON.init),
            mergedIDs: MergedIDsSection.counts(audit),
            productsToSettle: audit.productFindings.isEmpty ? nil : audit.productFindings,
            salesPopulation: audit.population.isEmpty
                ? nil : PopulationJSON(audit.population, audit.paidCopies))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(document)) + [0x0A]
        } catch {
            throw .internal("summary.json: \(error)")
        }
    }
}

/// Fractions written the same way everywhere: six decimals, no exponent.
enum Fraction {
    static func format(_ value: Double) -> String {
        String(format: "%.6f", value)
    }
}
