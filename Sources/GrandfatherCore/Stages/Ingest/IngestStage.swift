import GrandfatherEngine

/// Stage 1 and 2 of the pipeline over every input of a run: what the inputs gave besides the
/// records folded into the ledger.
struct Ingested: Sendable {
    /// One report per input, in the order given.
    var reports: [InputReport] = []
    /// Every rejected row, file by file in the order given, each file's in line order.
    var rejections: [Rejection] = []
    /// Ids of customers a source made for records that link to no known customer.
    var unlinkedCustomers: Set<String> = []
    /// Which customer ids the run merged, onto which customer.
    var identities = CustomerIdentities()
    /// What every source handed on beside records, by kind, filed under the merged ids.
    var findings = SourceFindings()
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
            ingested.findings.merge(outcome.findings)
            if !outcome.identities.isEmpty {
                // Read before any source of records (`InputSources`): every record after is
                // filed under its merged customer.
                ingested.identities = outcome.identities
                stream = stream.merging(outcome.identities)
            }
        }
        ingested.refileByIdentity()
        // Weighed once every source has handed on what it found (claims against the orders
        // of every sales report).
        let weighed = ingested.findings.weighedCustomers
        if !weighed.isEmpty { _ = ledger.add(weighed) }
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
    /// Files what the sources gave by customer id (their findings, the unlinked customers)
    /// under the customers the identities merged the ids onto.
    fileprivate mutating func refileByIdentity() {
        guard !identities.isEmpty else { return }
        findings = findings.refiled(by: identities)
        unlinkedCustomers = Set(unlinkedCustomers.map { identities.customerID(of: $0) })
    }
}
