/// The audit pipeline, stage by stage; each stage is a folder of this library.
///
/// 1. **Ingest** (`Ingest/`): input paths → `InputDescription` (format and kind by
///    content, SPEC §8.1) → `RawRow`s streamed by `CSVReader` (libcsv) or `JSONReader`.
/// 2. **Normalize** (`Normalize/`): `RawRow` → `Customer` | `Transaction` | `Rejection`
///    (`RecordNormalizer`, `TimestampParser`), with each file's accounting (`IngestSink`).
/// 3. **Classify** (`Classify/`): accepted records are folded into a `Ledger` as they stream
///    by (a `CustomerActivity` per customer, a fingerprint per transaction); then each
///    customer → `CustomerResult` (`Classifier`, `Flag`) → `Audit`.
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
    ///   - progress: told how many bytes of each file were read, for a progress bar.
    /// - Throws: `GrandfatherError` when an input cannot be recognised or read.
    public static func audit(
        policy: Policy, inputs: [String], asOf: Instant, progress: ProgressSink? = nil
    ) throws(GrandfatherError) -> Audit {
        let clock = ContinuousClock()
        let ingestStart = clock.now
        // Recognise every input before reading any, so a wrong file fails the run at once.
        var described: [(InputDescription, [String]?)] = []
        for path in inputs { described.append(try InputRecognizer.recognize(path: path)) }

        let normalizer = RecordNormalizer(timestamps: TimestampParser(defaultZone: policy.defaultTimeZone))
        var ledger = Ledger(policy: policy, asOf: asOf)
        var reports: [InputReport] = []
        var rejections: [Rejection] = []
        for (description, header) in described {
            let file = try InputFile(path: description.path)
            var sink = IngestSink(
                file: description.path, kind: description.kind, normalizer: normalizer, ledger: ledger)
            ledger = Ledger(policy: policy, asOf: asOf)  // the sink owns it while the file streams
            switch description.format {
            case .csv:
                try CSVReader(header: header ?? [], kind: description.kind).read(file, into: &sink)
            case .jsonLines:
                try JSONReader(kind: description.kind).readLines(file, into: &sink)
            case .jsonArray:
                try JSONReader(kind: description.kind).readArray(file, into: &sink)
            }
            ledger = sink.ledger
            rejections.append(contentsOf: sink.rejections)
            reports.append(
                InputReport(
                    path: description.path, format: description.format, kind: description.kind,
                    sizeBytes: file.size, sha256: file.digest(), rowsRead: sink.rowsRead,
                    rowsAccepted: sink.rowsAccepted, rowsRejected: sink.rejections.count,
                    exactDuplicates: sink.exactDuplicates, sandboxRows: sink.sandboxRows))
            progress?.fileFinished(path: description.path, bytes: file.size)
        }
        var timings = StageTimings()
        timings.ingest = seconds(clock.now - ingestStart)

        let classifyStart = clock.now
        let classifier = Classifier(policy: policy, asOf: asOf)
        var results = ledger.customers().map { classifier.classify($0.0, $0.1) }
        results.sort { $0.customer.id.codePointPrecedes($1.customer.id) }
        timings.classify = seconds(clock.now - classifyStart)

        return Audit(
            policy: policy, asOf: asOf, inputs: reports, rejections: rejections, customers: results, timings: timings)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Receives progress from a run; the command shows it only on a terminal.
public protocol ProgressSink: Sendable {
    /// A file was read to its end.
    func fileFinished(path: String, bytes: Int64)
}
