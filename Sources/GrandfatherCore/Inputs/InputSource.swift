import GrandfatherEngine

/// One kind of input file: the door every format comes in by.
///
/// A source recognises its files by their content (SPEC §8.1) and reads them into the one
/// stream of normalised records: rows laid out in the canonical fields of SPEC §2, given to
/// the `RecordStream`'s sinks, which normalise them (SPEC §8.3), fold accepted records into
/// the ledger and account for every row, or reject it with its file, line and reason.
/// Nothing after the ingest stage knows which source a record came from.
///
/// To add a source: a folder holding a type that conforms, and one line in
/// `InputSources.registered`.
protocol InputSource: Sendable {
    /// Recognises the file being peeked at, or returns `nil` when it is not this source's.
    ///
    /// - Throws: `GrandfatherError` when the file is plainly this source's kind but holds no
    ///   records to read (a certificate, a header that lacks a required column).
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput?

    /// Reads every input of a run that this source recognised, in the order given (the first
    /// customer row of an id wins, so order matters), and returns what each file gave, in
    /// the same order.
    ///
    /// Every registered source is asked, with no inputs when it recognised none: a source may
    /// still have something to report (the App Store source reports its signature checks).
    ///
    /// - Throws: `GrandfatherError` for the first input, in the order given, that cannot be read.
    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome
}

/// A file a source has recognised.
struct RecognizedInput: Sendable {
    var description: InputDescription
    /// The source that recognised the file and will read it.
    var source: any InputSource.Type
    /// What the source learned while recognising it and needs again to read it (a CSV
    /// header, an App Store shape); only that source looks inside.
    var detail: any Sendable

    /// Whether `source` recognised this file.
    func isRead(by source: any InputSource.Type) -> Bool {
        ObjectIdentifier(self.source) == ObjectIdentifier(source)
    }
}

/// What a source's inputs gave besides the records folded into the ledger.
struct SourceOutcome: Sendable {
    /// Per input, in the order given: its accounting and its rejections, in line order.
    var files: [(report: InputReport, rejections: [Rejection])] = []
    /// Customers the source made for records that no identity reached; flagged
    /// `unlinked_transactions`.
    var unlinkedCustomers: Set<String> = []
    /// Which customer ids name one customer; a source that gives them is read before any
    /// source of records.
    var identities = CustomerIdentities()
    /// What the source hands on beside records, each of a kind declared in its own folder.
    var findings = SourceFindings()
}

/// Where sources deliver rows, and the settings they read with.
struct RecordStream: Sendable {
    let settings: AuditSettings
    private(set) var normalizer: RecordNormalizer
    let ledger: ShardedLedger
    let meter: ProgressMeter?
    let options: IngestOptions
    /// Where `grandfather normalize` keeps every accepted transaction; `nil` for an audit.
    var recordLog: RecordLog?

    init(settings: AuditSettings, ledger: ShardedLedger, meter: ProgressMeter?, options: IngestOptions) {
        self.settings = settings
        self.normalizer = RecordNormalizer(
            timestamps: TimestampParser(defaultZone: settings.policy.defaultTimeZone))
        self.ledger = ledger
        self.meter = meter
        self.options = options
    }

    /// The stream with records filed under the customers `identities` merges ids onto.
    func merging(_ identities: CustomerIdentities) -> RecordStream {
        var stream = self
        stream.normalizer.identities = identities.resolved
        return stream
    }

    /// A sink for the rows of `kind` read from `file`: it normalises, folds and accounts for
    /// them, taking customer rows as `customerSource`'s. Parsers of several ranges of one file
    /// each take their own. `foldsInBackground`: for a source that reads a file on one thread,
    /// the sink folds its batches on another while the source reads on (`BackgroundFold`).
    func sink(
        file: String, kind: RecordKind, customerSource: CustomerSource, foldsInBackground: Bool = false
    ) -> IngestSink {
        IngestSink(
            file: file, kind: kind, customerSource: customerSource, normalizer: normalizer, ledger: ledger,
            log: recordLog, foldsInBackground: foldsInBackground)
    }
}
