import GrandfatherEngine

/// The audit pipeline, stage by stage; each stage is a folder of this library.
///
/// `SPEC §…` throughout the code cites docs/Specification.md, and `FORMATS.md §…` the store
/// formats' field reference, docs/Formats.md (a test checks every section cited is there).
///
/// 1. **Ingest** (`Stages/Ingest/`; the door and a folder per source in `Inputs/`): input
///    paths → the source that recognises each by content (`InputRecognizer`, SPEC §8.1) →
///    `RawRow`s in the canonical fields, which each source reads its own way (canonical
///    files as byte ranges streamed by `CSVReader` or `JSONReader`, one range per core at a
///    time; App Store files whole, then linked) and gives to the `RecordStream` (`IngestStage`).
/// 2. **Normalize** (`Stages/Normalize/`): `RawRow` → `Customer` | `Transaction` (in a
///    `TransactionBatch`) | `Rejection` (`RecordNormalizer`, `TimestampParser`), with each
///    file's accounting (`IngestSink`).
/// 3. **Classify** (`Stages/Classify/`): accepted records are folded into a `ShardedLedger` as they
///    stream by (a `CustomerActivity` per customer, a fingerprint per transaction); then each
///    customer → `Verdict` (`Classifier`, `FlagFacts`, `Flag`) → `Audit`, whose
///    `CustomerResults` derive each `CustomerResult` when read (`ClassifyStage`).
/// 4. **Compare** (`Stages/Changes/`): what changed since the previous run (`ChangeDetector`).
/// 5. **Report and snapshot** (`Outputs/`: `Report/`, `Snapshot/`, `Run/`): `Audit` → bytes of each
///    report and `snapshot.sqlite`, written into the run's own folder, then one atomic switch
///    of `latest` (`RunWriter`, driven by `AuditRun`).
public enum Pipeline {
    /// Runs stages 1–4 over `inputs` and returns the audit.
    ///
    /// - Throws: `GrandfatherError` when an input cannot be recognised or read.
    public static func audit(
        _ settings: AuditSettings, inputs: [String], progress: ProgressSink? = nil
    ) throws(GrandfatherError) -> Audit {
        try audits([settings], inputs: inputs, progress: progress)[0]
    }

    /// Reads `inputs` once and classifies them under each of `runs`, which differ in their
    /// policies only (a dry run that compares policies).
    static func audits(
        _ runs: [AuditSettings], inputs: [String], progress: ProgressSink? = nil,
        previous: PreviousRun = .none(.firstRun), hooks: TestHooks = TestHooks(), recordLog: RecordLog? = nil
    ) throws(GrandfatherError) -> [Audit] {
        let settings = try sharedReading(runs)
        var stopwatch = Stopwatch()
        // Recognise every input before reading any, so a wrong file fails the run at once.
        let files = try inputs.map { path throws(GrandfatherError) in
            try InputRecognizer.recognize(path: path, mapping: settings.mapping)
        }
        let rules = runs.map(AuditRules.init)
        let ledger = ShardedLedger.folding(for: rules)
        let ingested = try IngestStage.read(
            files, settings: settings, into: ledger, progress: progress, options: hooks.ingest, recordLog: recordLog)
        var timings = StageTimings(ingest: stopwatch.lap())
        hooks.reach(.afterIngest)
        var audits: [Audit] = []
        for (run, (rules, ledger)) in zip(runs, zip(rules, ledger.withFollowers)) {
            // Products the policy does not list grant what the rows say they unlock.
            let rowEntitlements = ingested.findings[RowEntitlements.self]
            let run = run.granting(rowEntitlements.byProduct)
            let rules = rowEntitlements.isEmpty ? rules : AuditRules(run)
            let results = ClassifyStage.classify(
                ledger, under: rules, unlinked: ingested.unlinkedCustomers,
                serviceEntitlements: ingested.findings[ServiceEntitlements.self].byCustomer, hooks: hooks)
            let revenue = RevenueAtStake(results)
            timings.classify = stopwatch.lap()
            let changes = try ChangeDetector.changes(in: results, since: previous)
            timings.compare = stopwatch.lap()
            audits.append(
                Audit(run, ingested, results, revenue: revenue, changes: changes, previous: previous, timings: timings))
        }
        return audits
    }

    /// The settings every run reads the inputs with, when the runs agree on how to read them:
    /// rows are normalised once, so zone-less timestamps and App Store files must read alike.
    private static func sharedReading(_ runs: [AuditSettings]) throws(GrandfatherError) -> AuditSettings {
        guard let first = runs.first else { throw .usage("no policy given") }
        guard runs.allSatisfy({ $0.policy.defaultTimeZone == first.policy.defaultTimeZone }) else {
            throw .usage("the policies read zone-less timestamps in different default_time_zone values")
        }
        guard runs.allSatisfy({ $0.policy.apple == first.policy.apple }) else {
            throw .usage("the policies read App Store files differently: their apple sections differ")
        }
        return first
    }
}
