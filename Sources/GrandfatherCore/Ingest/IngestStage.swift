import Dispatch

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
    /// Ids of customers made for App Store subscriptions that link to no app transaction.
    var unlinkedCustomers: Set<String> = []
}

/// Reads every recognised input of a run into the ledger.
enum IngestStage {
    /// Reads `inputs` (recognised, with their CSV headers) into `ledger`, App Store files
    /// first and together (their customers link across files), then the canonical files.
    ///
    /// Customer files are read in input order on a thread of their own (whether a repeated
    /// customer row is accepted depends on order, so each is read as one range), while the
    /// transaction files are read on every core: reading customers no longer leaves a core
    /// idle. The ledger is shared and folding is commutative, so nothing else changes.
    static func read(
        _ inputs: [(InputDescription, header: [String]?)], settings: AuditSettings, into ledger: ShardedLedger,
        progress: ProgressSink?, options: IngestOptions
    ) throws(GrandfatherError) -> Ingested {
        let normalizer = RecordNormalizer(timestamps: TimestampParser(defaultZone: settings.policy.defaultTimeZone))
        let meter = ProgressMeter(sink: progress, total: inputs.reduce(0) { $0 + $1.0.size })
        let appStore = try AppStoreIngest.read(
            inputs.map(\.0).filter { $0.format == .appStore }, policy: settings.policy, checks: settings.signatures,
            normalizer: normalizer, ledger: ledger, now: settings.now, meter: meter)
        let canonical = inputs.indices.filter { inputs[$0].0.format != .appStore }
        let results = ResultSlots<(InputReport, [Rejection])>(count: inputs.count)
        // Reads the files at `indices` in order, stopping at the first that fails.
        let readFiles = { @Sendable (indices: [Int]) in
            for index in indices {
                let result = Result { () throws(GrandfatherError) in
                    try FileIngest.read(
                        inputs[index].0, header: inputs[index].header, normalizer: normalizer, ledger: ledger,
                        options: options, meter: meter)
                }
                results.store(index, result)
                if case .failure = result { break }
            }
        }
        let customersRead = DispatchGroup()
        DispatchQueue.global().async(group: customersRead) {
            readFiles(canonical.filter { inputs[$0].0.kind == .customers })
        }
        readFiles(canonical.filter { inputs[$0].0.kind != .customers })
        customersRead.wait()

        var ingested = Ingested(unlinkedCustomers: appStore.unlinkedCustomers)
        var appStoreReports = appStore.reports.makeIterator()
        // In input order, so that the first file that failed is the one reported.
        for (index, (description, _)) in inputs.enumerated() {
            if description.format == .appStore, let report = appStoreReports.next() {
                ingested.reports.append(report)
                ingested.rejections.append(contentsOf: appStore.rejections.filter { $0.file == description.path })
                continue
            }
            let (report, fileRejections) = try results.take(index)
            ingested.reports.append(report)
            ingested.rejections.append(contentsOf: fileRejections)
        }
        if appStore.summary.files > 0 || settings.signatures != SignatureChecks() {
            ingested.appStore = appStore.summary
        }
        return ingested
    }

    /// About how many transaction rows the inputs hold, from each file's size and the mean
    /// length of its first lines, so the fingerprint table is sized once, up front.
    static func estimatedTransactions(_ inputs: [InputDescription]) throws(GrandfatherError) -> Int {
        var total = 0.0
        var sample: [UInt8] = []
        for input in inputs where input.kind == .transactions && input.format != .appStore {
            let source = try ByteSource(path: input.path)
            let count = try source.read(at: source.dataStart, count: 1 << 18, into: &sample)
            let lines = sample[0..<count].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            total += Double(source.size) / Double(max(count, 1)) * Double(max(lines, 1))
        }
        return Int(total * 1.02)
    }
}
