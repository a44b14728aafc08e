/// Entry points for the libFuzzer targets in `Fuzz/` (`@_spi(Fuzzing) import GrandfatherCore`).
///
/// Each drives one input surface the way the audit does, so that a fuzzer reaches the same
/// code a real export reaches; the internals stay internal. Not for any other caller.
@_spi(Fuzzing) public enum Fuzzing {
    /// What reading one input gave: its accounting and its rejections, in line order.
    public struct IngestOutcome: Equatable, Sendable {
        public var report: InputReport
        public var rejections: [Rejection]
    }

    /// How many bytes the readers read at a time: where their chunk boundaries fall.
    public static var chunkSize: Int { ByteSource.chunkSize }

    /// Recognises the input at `path` (format and kind by content, SPEC §8.1), as
    /// `Pipeline.audit` does before reading anything.
    ///
    /// - Returns: the description, and the header for CSV.
    /// - Throws: `GrandfatherError` when the input cannot be recognised.
    public static func recognize(path: String) throws(GrandfatherError) -> (InputDescription, header: [String]?) {
        try InputRecognizer.recognize(path: path)
    }

    /// Reads a recognised input through the ingest and normalize stages into a fresh ledger,
    /// as `Pipeline.audit` does, with large-file splitting forced down to ranges of one byte
    /// so that small inputs are cut as large ones are.
    ///
    /// - Parameters:
    ///   - description: what `recognize(path:)` found.
    ///   - header: the CSV header `recognize(path:)` returned.
    ///   - policy: gives the default time zone and the ledger's rules.
    ///   - asOf: the audit's instant.
    ///   - parts: how many ranges to cut transactions into; 1 reads in one pass.
    /// - Returns: the input's accounting and rejections.
    /// - Throws: `GrandfatherError` when the input cannot be read.
    public static func ingest(
        _ description: InputDescription, header: [String]?, policy: Policy, asOf: Instant, parts: Int
    ) throws(GrandfatherError) -> IngestOutcome {
        let normalizer = RecordNormalizer(timestamps: TimestampParser(defaultZone: policy.defaultTimeZone))
        let ledger = ShardedLedger(
            policy: policy, asOf: asOf, expectedTransactions: try Pipeline.estimatedTransactions([description]))
        let (report, rejections) = try FileIngest.read(
            description, header: header, normalizer: normalizer, ledger: ledger,
            options: IngestOptions(parts: parts, minimumPartSize: 1))
        return IngestOutcome(report: report, rejections: rejections)
    }

    /// `AppVersion.compare(_:with:)`, the comparison `<` and `naive_version_trap` read.
    ///
    /// - Returns: `nil` when `text` is not a version, else whether it is lower than `other`
    ///   and whether plain string comparison says it is.
    public static func compare(_ text: String, with other: AppVersion) -> (lower: Bool, naivelyLower: Bool)? {
        AppVersion.compare(text, with: other)
    }
}
