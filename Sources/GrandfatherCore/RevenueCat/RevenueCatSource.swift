extension InputFormat {
    /// RevenueCat's Scheduled Data Export (the transactions feed), CSV.
    public static let revenueCatExport = InputFormat(rawValue: "revenuecat-export")
}

/// RevenueCat's exports (FORMATS.md §a–c). A Scheduled Data Export is told by its header,
/// which names every required column; its rows are laid out in SPEC §2's transaction fields
/// (`ExportTransaction`) and flow into the record stream as canonical rows do.
///
/// A transaction may be delivered more than once, in one file or across a run's files:
/// the exports are read twice, first to learn each transaction's latest delivery, then to
/// feed the latest ones, counting the others as superseded.
enum RevenueCatSource: InputSource {
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let first = file.firstNonBlank, first != UInt8(ascii: "["), first != UInt8(ascii: "{") else {
            return nil
        }
        guard let header = try CSVReader.readHeader(file.source, dataStart: file.source.dataStart),
            ExportFile.recognizes(header: header)
        else { return nil }
        return RecognizedInput(
            description: file.describe(format: .revenueCatExport, kind: .transactions), source: Self.self,
            detail: header)
    }

    static func estimatedTransactions(_ input: RecognizedInput) throws(GrandfatherError) -> Double {
        try CanonicalSource.estimatedTransactions(input)
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        let productTypes = stream.settings.policy.products.compactMapValues(\.type)
        var headers: [[String]] = []
        for input in inputs {
            guard let header = input.detail as? [String] else {
                throw .internal("\(input.description.path) has no RevenueCat export header")
            }
            headers.append(header)
        }

        var deliveries = Deliveries()
        for (input, header) in zip(inputs, headers) where header.contains(ExportColumn.updatedAt.name) {
            try ExportFile.read(input.description.path, header: header, productTypes: productTypes, into: &deliveries)
        }

        var outcome = SourceOutcome()
        for (input, header) in zip(inputs, headers) {
            let path = input.description.path
            var feed = Feed(
                sink: stream.sink(file: path, kind: .transactions), deliveries: deliveries.table)
            try ExportFile.read(path, header: header, productTypes: productTypes, into: &feed, meter: stream.meter)
            feed.sink.flush()
            let sink = feed.sink
            let file = try ByteSource(path: path)
            let report = InputReport(
                path: path, format: .revenueCatExport, kind: .transactions, sizeBytes: Int64(file.storedSize),
                sha256: try file.sha256(), rowsRead: sink.rowsRead + feed.superseded,
                rowsAccepted: sink.rowsAccepted + feed.superseded, rowsRejected: sink.rejections.count,
                exactDuplicates: sink.exactDuplicates, sandboxRows: sink.sandboxRows, superseded: feed.superseded)
            outcome.files.append((report, sink.rejections))
        }
        return outcome
    }

    /// Notes every readable row's delivery; a row that cannot be read supersedes nothing.
    private struct Deliveries: ExportRowHandler {
        var table = ExportDeliveries()

        mutating func accept(_ transaction: ExportTransaction, line: Int) {
            table.note(transaction.delivery, updatedAt: transaction.updatedAt)
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {}
    }

    /// Gives the stream each row that is its transaction's latest delivery, in the canonical
    /// fields, and rejects the rows that cannot be read.
    private struct Feed: ExportRowHandler {
        var sink: IngestSink
        let deliveries: ExportDeliveries
        var writer = CanonicalRowWriter()
        /// Rows a later delivery replaced: accepted, and not used.
        var superseded = 0

        init(sink: IngestSink, deliveries: ExportDeliveries) {
            self.sink = sink
            self.deliveries = deliveries
        }

        mutating func accept(_ transaction: ExportTransaction, line: Int) {
            if deliveries.isSuperseded(transaction.delivery, updatedAt: transaction.updatedAt) {
                superseded += 1
                return
            }
            writer.emit(
                transaction.canonicalFields, fieldCount: TransactionField.allCases.count, line: line, into: &sink)
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            sink.reject(line: line, column: column, field: field, reason: reason)
        }
    }
}
