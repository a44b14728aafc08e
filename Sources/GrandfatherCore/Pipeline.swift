import Foundation

/// The audit pipeline, stage by stage; each stage is a folder of this library.
///
/// 1. **Ingest** (`Ingest/`): input paths → `InputDescription` (format and kind by
///    content, SPEC §8.1) → byte ranges (`RecordSplitter`) → `RawRow`s streamed by
///    `CSVReader` (libcsv) or `JSONReader`, one range per core at a time (`FileIngest`).
/// 2. **Normalize** (`Normalize/`): `RawRow` → `Customer` | `Transaction` (in a
///    `TransactionBatch`) | `Rejection` (`RecordNormalizer`, `TimestampParser`), with each
///    file's accounting (`IngestSink`).
/// 3. **Classify** (`Classify/`): accepted records are folded into a `ShardedLedger` as they
///    stream by (a `CustomerActivity` per customer, a fingerprint per transaction); then each
///    customer → `Verdict` (`Classifier`, `FlagFacts`, `Flag`) → `Audit`, whose
///    `CustomerResults` derive each `CustomerResult` when read.
/// 4. **Report and snapshot** (`Report/`, `Snapshot/`, `Output/`): `Audit` → bytes of each
///    report and `snapshot.sqlite`, written into the run's own folder, then one atomic switch
///    of `latest` (`RunWriter`).
public enum Pipeline {
    /// Runs stages 1–3 over `inputs` and returns the audit.
    ///
    /// - Parameters:
    ///   - policy: the validated policy.
    ///   - inputs: paths as given on the command line.
    ///   - asOf: the instant the audit is taken at.
    ///   - progress: told how much input was read, for a progress bar.
    ///   - previous: what to compare with: the previous run's snapshot, or why there is none.
    ///   - stops: where a test asks the process to die.
    ///   - signatures: how App Store inputs' signatures are treated.
    /// - Throws: `GrandfatherError` when an input cannot be recognised or read.
    public static func audit(
        policy: Policy, inputs: [String], asOf: Instant, progress: ProgressSink? = nil,
        previous: PreviousRun = .none(.firstRun), stops: TestStops = TestStops(),
        signatures: SignatureChecks = SignatureChecks()
    ) throws(GrandfatherError) -> Audit {
        try audit(
            policy: policy, inputs: inputs, asOf: asOf, progress: progress, options: IngestOptions(),
            previous: previous, stops: stops, signatures: signatures)
    }

    /// The same, with the ingest stage's range options (tests force small ranges).
    static func audit(
        policy: Policy, inputs: [String], asOf: Instant, progress: ProgressSink?, options: IngestOptions,
        previous: PreviousRun = .none(.firstRun), stops: TestStops = TestStops(),
        signatures: SignatureChecks = SignatureChecks()
    ) throws(GrandfatherError) -> Audit {
        try audits(
            policies: [policy], inputs: inputs, asOf: asOf, progress: progress, options: options, previous: previous,
            stops: stops, signatures: signatures)[0]
    }

    /// Reads `inputs` once and classifies them under each of `policies`, for a dry run that
    /// compares policies. They must read zone-less timestamps alike (one `default_time_zone`),
    /// since the rows are normalised once.
    ///
    /// - Throws: `GrandfatherError.usage` when the policies' time zones differ, and what
    ///   `audit` throws.
    public static func audits(
        policies: [Policy], inputs: [String], asOf: Instant, progress: ProgressSink? = nil,
        signatures: SignatureChecks = SignatureChecks()
    ) throws(GrandfatherError) -> [Audit] {
        try audits(
            policies: policies, inputs: inputs, asOf: asOf, progress: progress, options: IngestOptions(),
            signatures: signatures)
    }

    static func audits(
        policies: [Policy], inputs: [String], asOf: Instant, progress: ProgressSink?, options: IngestOptions,
        previous: PreviousRun = .none(.firstRun), stops: TestStops = TestStops(),
        signatures: SignatureChecks = SignatureChecks()
    ) throws(GrandfatherError) -> [Audit] {
        guard let policy = policies.first else { throw .usage("no policy given") }
        guard policies.allSatisfy({ $0.defaultTimeZone == policy.defaultTimeZone }) else {
            throw .usage("the policies read zone-less timestamps in different default_time_zone values")
        }
        guard policies.allSatisfy({ $0.apple == policy.apple }) else {
            throw .usage("the policies read App Store files differently: their apple sections differ")
        }
        let clock = ContinuousClock()
        let ingestStart = clock.now
        // Recognise every input before reading any, so a wrong file fails the run at once.
        var described: [(InputDescription, [String]?)] = []
        for path in inputs { described.append(try InputRecognizer.recognize(path: path)) }

        let normalizer = RecordNormalizer(timestamps: TimestampParser(defaultZone: policy.defaultTimeZone))
        let expected = try estimatedTransactions(described.map(\.0))
        let followers = policies.dropFirst().map {
            ShardedLedger(policy: $0, asOf: asOf, expectedTransactions: expected)
        }
        let ledger = ShardedLedger(
            policy: policy, asOf: asOf, expectedTransactions: expected, followers: Array(followers))
        let meter = ProgressMeter(sink: progress, total: described.reduce(0) { $0 + $1.0.size })
        // App Store files are read together first: their customers link across files.
        let appStore = try AppStoreIngest.read(
            described.map(\.0).filter { $0.format == .appStore }, policy: policy, checks: signatures,
            normalizer: normalizer, ledger: ledger,
            now: Instant(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)), meter: meter)
        // Customer files are read in input order on a thread of their own (whether a repeated
        // customer row is accepted depends on order, so each is read as one range), while the
        // transaction files are read on every core: reading customers no longer leaves a core
        // idle. The ledger is shared and folding is commutative, so nothing else changes.
        let inputs = described
        let canonical = inputs.indices.filter { inputs[$0].0.format != .appStore }
        let customerFiles = canonical.filter { inputs[$0].0.kind == .customers }
        let results = ResultSlots<(InputReport, [Rejection])>(count: described.count)
        // Reads the files at `indices` in order, stopping at the first that fails.
        let readFiles = { @Sendable (indices: [Int]) in
            for index in indices {
                let result = Result { () throws(GrandfatherError) in
                    try FileIngest.read(
                        inputs[index].0, header: inputs[index].1, normalizer: normalizer, ledger: ledger,
                        options: options, meter: meter)
                }
                results.store(index, result)
                if case .failure = result { break }
            }
        }
        let customersRead = DispatchGroup()
        DispatchQueue.global().async(group: customersRead) { readFiles(customerFiles) }
        readFiles(canonical.filter { inputs[$0].0.kind != .customers })
        customersRead.wait()

        var appStoreReports = appStore.reports.makeIterator()
        var reports: [InputReport] = []
        var rejections: [Rejection] = []
        // In input order, so that the first file that failed is the one reported.
        for (index, (description, _)) in described.enumerated() {
            if description.format == .appStore, let report = appStoreReports.next() {
                reports.append(report)
                rejections.append(contentsOf: appStore.rejections.filter { $0.file == description.path })
                continue
            }
            let (report, fileRejections) = try results.take(index)
            reports.append(report)
            rejections.append(contentsOf: fileRejections)
        }
        let appStoreSummary =
            appStore.summary.files > 0 || signatures != SignatureChecks() ? appStore.summary : nil
        let ingested = seconds(clock.now - ingestStart)
        stops.reach(.afterIngest)

        var audits: [Audit] = []
        for (policy, ledger) in zip(policies, [ledger] + followers) {
            var timings = StageTimings()
            timings.ingest = ingested
            let classifyStart = clock.now
            let classifier = Classifier(policy: policy, asOf: asOf)
            var (customers, activities) = ledger.finish()
            if !appStore.unlinkedCustomers.isEmpty {
                for index in customers.indices where appStore.unlinkedCustomers.contains(customers[index].id) {
                    customers[index].isUnlinked = true
                }
            }
            stops.reach(.midClassify)
            let results = CustomerResults(
                records: consume customers, activities: consume activities, classifier: classifier)
            let revenue = RevenueAtStake(results)
            timings.classify = seconds(clock.now - classifyStart)

            let compareStart = clock.now
            let changes: ChangeSet
            switch previous {
            case .none(let basis): changes = .nothing(basis)
            case .snapshot(let snapshot): changes = try ChangeDetector.compare(results, with: snapshot)
            }
            timings.compare = seconds(clock.now - compareStart)
            audits.append(
                Audit(
                    policy: policy, asOf: asOf, inputs: reports, rejections: rejections, customers: results,
                    timings: timings, changes: changes, revenue: revenue, previous: previous.snapshot,
                    appStore: appStoreSummary))
        }
        return audits
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

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Receives progress from a run; the command shows it only on a terminal.
public protocol ProgressSink: Sendable {
    /// Input read so far: bytes of all inputs' bytes, and rows. Called often, from any thread.
    func read(bytes: Int64, of total: Int64, rows: Int)
}
