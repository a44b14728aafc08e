import Foundation
import GrandfatherEngine

/// The result of classifying every customer: what every report and the snapshot render.
public struct Audit: Sendable {
    public var policy: Policy
    /// The mapping `--map` read the team's own files through, recorded beside the policy.
    public var mapping: (path: String, sha256: String)?
    public var asOf: Instant
    /// One report per input file, in command-line order.
    public var inputs: [InputReport]
    /// Every rejected row, in input order then line order.
    public var rejections: [Rejection]
    /// Every customer, sorted by id in code-point order (SPEC §8.25), classified on access.
    public var customers: CustomerResults
    /// Wall time of each stage, in seconds; describes the run, never the reports.
    public var timings: StageTimings
    /// What changed since the previous run.
    public var changes: ChangeSet
    /// What each class pays for current subscriptions.
    public var revenue: RevenueAtStake
    /// The previous run's snapshot, whose `runs` rows the new snapshot carries forward.
    public var previous: PreviousSnapshot?
    /// What the sources handed on beside records (`SourceFindings`): each report section
    /// that shows one asks for its kind.
    var findings = SourceFindings()
    /// The customer ids merged onto another customer (RevenueCat webhook events), in id order.
    var mergedIDs: [CustomerIdentities.Merged] = []
    /// Which engine classified (the runs table's `engine_json`): Grandfather's own, or the
    /// warehouse's `engine.json` for a run made from its results (`audit --results`).
    public var engine = Audit.engineJSON(["engine": "grandfather", "version": ToolVersion.current])
    /// Those copies set beside the customers grandfathered, made once for every report.
    public var paidCopies: PopulationReconciliation

    /// What the App Store inputs amounted to and how their signatures were treated; `nil`
    /// when the run read none and checked signatures as by default.
    public var appStore: AppStoreSummary? {
        get { findings[ifHandedOn: AppStoreSummary.self] }
        set { findings[ifHandedOn: AppStoreSummary.self] = newValue }
    }
    /// What a subscription service (RevenueCat, through subscriber responses) has active at
    /// as-of, by customer id, for each customer it gave a view of; empty when the run read none.
    public var serviceEntitlements: [String: Set<String>] { findings[ServiceEntitlements.self].byCustomer }
    /// What rows said each product unlocks (`RowEntitlements`), by product id.
    var rowEntitlements: [String: Set<String>] { findings[RowEntitlements.self].byProduct }
    /// The products whose type rests on weak evidence (SPEC §9, Product facts), in id order.
    public var productFindings: [ProductFindings.Finding] { findings[ProductFindings.Listed.self].findings }
    /// What the stores' sales reports counted; empty when the run read none.
    public var population: SalesPopulation {
        get { findings[SalesPopulation.self] }
        set { findings[ifHandedOn: SalesPopulation.self] = newValue }
    }

    /// Whether a subscription service's view of the customers was read (RevenueCat subscriber
    /// responses), so that the run reconciled it and writes the grants files.
    public var reconciled: Bool { !serviceEntitlements.isEmpty }

    /// The audit of a run under `settings`, from what its inputs gave and its stages made.
    init(
        _ settings: AuditSettings, _ ingested: Ingested, _ customers: CustomerResults, revenue: RevenueAtStake,
        changes: ChangeSet, previous: PreviousRun, timings: StageTimings
    ) {
        policy = settings.policy
        mapping = settings.mapping.map { ($0.path, $0.digest) }
        asOf = settings.asOf
        inputs = ingested.reports
        rejections = ingested.rejections
        self.customers = customers
        self.timings = timings
        self.changes = changes
        self.revenue = revenue
        self.previous = previous.snapshot
        findings = ingested.findings
        mergedIDs = ingested.identities.merged
        paidCopies = PopulationReconciliation(
            ingested.findings[SalesPopulation.self], sales: settings.policy.sales, customers: customers)
    }

    /// An engine's description as one JSON object, keys sorted.
    static func engineJSON(_ fields: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(fields)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public var rowsRead: Int { inputs.reduce(0) { $0 + $1.rowsRead } }
    public var rowsRejected: Int { inputs.reduce(0) { $0 + $1.rowsRejected } }
    public var rowsAccepted: Int { inputs.reduce(0) { $0 + $1.rowsAccepted } }

    /// Rejected rows over rows read, 0 when nothing was read.
    public var rejectedFraction: Double {
        rowsRead == 0 ? 0 : Double(rowsRejected) / Double(rowsRead)
    }

    /// Whether the data-quality threshold was exceeded (exit 3, `latest` not moved).
    public var exceedsRejectionThreshold: Bool {
        rejectedFraction > policy.maxRejectedFraction
    }

    /// Customers per class, every class present (zero included), in class order.
    public var classCounts: [(CustomerClass, Int)] { customers.tally.classes }

    /// Customers per flag, every flag present (zero included), in catalog order.
    public var flagCounts: [(Flag, Int)] { customers.tally.flags }

    /// Customers carrying at least one `review` flag.
    public var reviewCustomers: Int { customers.tally.review }
}

/// Seconds spent in each stage of one run.
public struct StageTimings: Sendable, Codable, Equatable {
    public var ingest: Double = 0
    public var classify: Double = 0
    /// Comparing with the previous run; 0 when there was none.
    public var compare: Double = 0
    public var snapshot: Double = 0
    public var reports: Double = 0

    public init(ingest: Double = 0) {
        self.ingest = ingest
    }
}
