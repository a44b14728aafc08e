import GrandfatherEngine

/// Stage 1 and 2 of the pipeline over every input of a run: what the inputs gave besides the
/// records folded into the ledger.
struct Ingested: Sendable {
    /// One report per input, in the order given.
    var reports: [InputReport] = []
    /// Every rejected row, file by file in the order given, each file's in line order.
    var rejections: [Rejection] = []
    /// What the App Store inputs held, when there were any or the signature checks differ
    /// from the default (reports then say how signatures were treated).
    var appStore: AppStoreSummary?
    /// Ids of customers a source made for records that link to no known customer.
    var unlinkedCustomers: Set<String> = []
    /// What a subscription service has active at as-of, by customer id (RevenueCat
    /// subscriber responses), for the reconciliation flags.
    var serviceEntitlements: [String: Set<String>] = [:]
    /// What the rows of sources that state it say each product unlocks.
    var rowEntitlements = RowEntitlements()
    /// The products whose type rests on weak evidence (`ProductFindings`).
    var productFindings: [ProductFindings.Finding] = []
    /// Which customer ids the run merged, onto which customer.
    var identities = CustomerIdentities()
    /// What the stores' sales reports counted.
    var population = SalesPopulation()
}

/// Reads every recognised input of a run into the ledger, source by source.
enum IngestStage {
    /// Reads `inputs` into `ledger`: each registered source reads the inputs it recognised,
    /// in the order given, and the sources take turns in the order they are registered.
    static func read(
        _ inputs: [RecognizedInput], settings: AuditSettings, into ledger: ShardedLedger, progress: ProgressSink?,
        options: IngestOptions, recordLog: RecordLog? = nil
    ) throws(GrandfatherError) -> Ingested {
        let meter = ProgressMeter(sink: progress, total: inputs.reduce(0) { $0 + $1.description.size })
        var stream = RecordStream(settings: settings, ledger: ledger, meter: meter, options: options)
        stream.recordLog = recordLog
        var files = [(report: InputReport, rejections: [Rejection])?](repeating: nil, count: inputs.count)
        var ingested = Ingested()
        var claims: [ClaimedOrderRules.Claim] = []
        // Files rank for duplicates in the order they are read: source by source, then as given.
        ledger.rankFiles(
            InputSources.registered.flatMap { source in
                inputs.filter { $0.isRead(by: source) }.map(\.description.path)
            })
        for source in InputSources.registered {
            let indices = inputs.indices.filter { inputs[$0].isRead(by: source) }
            let outcome = try source.read(indices.map { inputs[$0] }, into: stream)
            guard outcome.files.count == indices.count else {
                throw .internal("the \(source) source gave \(outcome.files.count) files for \(indices.count) inputs")
            }
            for (index, file) in zip(indices, outcome.files) { files[index] = file }
            ingested.unlinkedCustomers.formUnion(outcome.unlinkedCustomers)
            ingested.serviceEntitlements.merge(outcome.serviceEntitlements) { $0.union($1) }
            ingested.rowEntitlements.merge(outcome.rowEntitlements)
            ingested.productFindings += outcome.productFindings
            ingested.population.merge(outcome.population)
            claims += outcome.claims
            if let summary = outcome.appStore { ingested.appStore = summary }
            if !outcome.identities.isEmpty {
                // Read before any source of records (`InputSources`): every record after is
                // filed under its merged customer.
                ingested.identities = outcome.identities
                stream = stream.merging(outcome.identities)
            }
        }
        ingested.refileByIdentity()
        if !claims.isEmpty {
            // Weighed together, once every report has given its orders: a record per claimant.
            let merged = claims.map {
                ClaimedOrderRules.Claim(customerID: ingested.identities.customerID(of: $0.customerID), order: $0.order)
            }
            _ = ledger.add(ClaimedOrderRules.customers(claiming: merged, orders: ingested.population.orders))
        }
        let duplicates = try ledger.settle()
        // A path given twice shares one count, which goes to its last report: its rows all
        // repeat the first's.
        var lastReport: [String: Int] = [:]
        for case (let index, (let report, _)?) in files.enumerated() { lastReport[report.path] = index }
        for case (let index, (var report, let rejections)?) in files.enumerated() {
            if lastReport[report.path] == index { report.exactDuplicates += duplicates[report.path] ?? 0 }
            ingested.reports.append(report)
            ingested.rejections.append(contentsOf: rejections)
        }
        return ingested
    }
}

extension Ingested {
    /// Files what the sources gave by customer id (RevenueCat's view, the unlinked
    /// customers) under the customers the identities merged the ids onto.
    fileprivate mutating func refileByIdentity() {
        guard !identities.isEmpty else { return }
        var entitlements: [String: Set<String>] = [:]
        for (id, active) in serviceEntitlements {
            entitlements[identities.customerID(of: id), default: []].formUnion(active)
        }
        serviceEntitlements = entitlements
        unlinkedCustomers = Set(unlinkedCustomers.map { identities.customerID(of: $0) })
    }
}
