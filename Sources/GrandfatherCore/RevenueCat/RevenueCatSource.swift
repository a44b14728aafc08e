import Dispatch

extension InputFormat {
    /// RevenueCat's Scheduled Data Export (the transactions feed), CSV.
    public static let revenueCatExport = InputFormat(rawValue: "revenuecat-export")
}

/// RevenueCat's exports (FORMATS.md §a–c). A Scheduled Data Export is told by its header,
/// which names every required column; its rows are laid out in SPEC §2's transaction fields
/// (`ExportTransaction`) and flow into the record stream as canonical rows do.
///
/// A transaction may be delivered more than once, in one file or across a run's files, so
/// the rows are fed only once every file is read: each range of each file is parsed once, on
/// every core, into a spill of canonical rows, the deliveries of every row are compared, and
/// then the spills are fed to the stream, the superseded rows counted and left out.
enum RevenueCatSource: InputSource {
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let first = file.firstNonBlank else { return nil }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") { return try recognizeJSON(&file) }
        // The transactions feed writes commas; older Scheduled Data Exports, semicolons.
        for delimiter in ExportHeader.delimiters {
            guard
                let names = try CSVReader.readHeader(
                    file.source, dataStart: file.source.dataStart, delimiter: delimiter)
            else { continue }
            let header = ExportHeader(names: names, delimiter: delimiter)
            if ExportFile.recognizes(header: names) {
                return RecognizedInput(
                    description: file.describe(format: .revenueCatExport, kind: .transactions), source: Self.self,
                    detail: header)
            }
            if CustomerList.recognizes(header: names) {
                return RecognizedInput(
                    description: file.describe(format: .revenueCatCustomerList, kind: .customers), source: Self.self,
                    detail: header)
            }
        }
        return nil
    }

    /// How much of a JSON file recognition reads, at most, to find the first object's keys.
    static let maximumPeek = 16 << 20

    /// Subscriber responses, told by the keys of the first object: read more of the file
    /// while the first value is cut short by the end of what was read.
    private static func recognizeJSON(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        while true {
            switch JSONDocuments.units(file.prefix).first {
            case .element(let element)?:
                let object = element.elements?.first ?? element
                guard SubscriberResponse.recognizes(keys: object.keys) else { return nil }
                return RecognizedInput(
                    description: file.describe(format: .revenueCatSubscribers, kind: .customers), source: Self.self,
                    detail: ())
            case .rejected?, nil:
                guard file.prefix.count < maximumPeek, try file.readMore() else { return nil }
            }
        }
    }

    static func estimatedTransactions(_ input: RecognizedInput) throws(GrandfatherError) -> Double {
        try CanonicalSource.estimatedTransactions(input)
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        let appStore = stream.settings.policy.apple.defaultPlatform ?? .ios
        let exports = inputs.indices.filter { inputs[$0].description.format == .revenueCatExport }
        var outcome = SourceOutcome()
        var files = [(report: InputReport, rejections: [Rejection])?](repeating: nil, count: inputs.count)
        for index in inputs.indices {
            switch inputs[index].description.format {
            case .revenueCatCustomerList:
                files[index] = try readCustomerList(inputs[index], appStore: appStore, into: stream)
            case .revenueCatSubscribers:
                let read = try readSubscribers(inputs[index], appStore: appStore, into: stream)
                files[index] = (read.report, read.rejections)
                outcome.serviceEntitlements.merge(read.active) { $0.union($1) }
            default: break
            }
        }
        let read = try readExports(exports.map { inputs[$0] }, appStore: appStore, into: stream)
        for (index, file) in zip(exports, read.files) { files[index] = file }
        outcome.files = files.compactMap { $0 }
        return outcome
    }

    /// Reads a customer list, in one range: whether a repeated id is rejected depends on
    /// order (SPEC §8.7).
    private static func readCustomerList(
        _ input: RecognizedInput, appStore: Platform, into stream: RecordStream
    ) throws(GrandfatherError) -> (report: InputReport, rejections: [Rejection]) {
        guard let header = input.detail as? ExportHeader else {
            throw .internal("\(input.description.path) has no RevenueCat customer list header")
        }
        let source = try ByteSource(path: input.description.path)
        var sink = stream.sink(file: input.description.path, kind: .customers, customerSource: .customerList)
        try CustomerListFile.read(source, header: header, appStore: appStore, into: &sink, meter: stream.meter)
        sink.flush()
        let report = InputReport(
            path: input.description.path, format: .revenueCatCustomerList, kind: .customers,
            sizeBytes: Int64(source.storedSize), sha256: try source.sha256(), rowsRead: sink.rowsRead,
            rowsAccepted: sink.rowsAccepted, rowsRejected: sink.rejections.count,
            exactDuplicates: sink.exactDuplicates, sandboxRows: sink.sandboxRows)
        return (report, sink.rejections)
    }

    /// The largest subscriber-response file read: these are read whole.
    static let maximumDocumentFileSize = 1 << 30

    /// Reads a file of subscriber responses: each body a row, in file order.
    private static func readSubscribers(
        _ input: RecognizedInput, appStore: Platform, into stream: RecordStream
    ) throws(GrandfatherError) -> (report: InputReport, rejections: [Rejection], active: [String: Set<String>]) {
        let path = input.description.path
        let source = try ByteSource(path: path)
        var active: [String: Set<String>] = [:]
        guard source.size <= maximumDocumentFileSize else {
            throw .input(
                file: path, line: nil,
                message:
                    "subscriber responses of \(source.size) bytes are over the \(maximumDocumentFileSize >> 20) MiB read whole"
            )
        }
        var sink = stream.sink(file: path, kind: .customers, customerSource: .subscriberResponse)
        for unit in JSONDocuments.units(try source.readAll()) {
            switch unit {
            case .element(let body):
                switch SubscriberResponse.read(body, appStore: appStore, asOf: stream.settings.asOf) {
                case .success(let read):
                    sink.accept(customer: read.customer, line: body.line)
                    active[read.customer.id, default: []].formUnion(read.active)
                case .failure(let problem):
                    // The body is the row: rejected at the line it starts on.
                    sink.reject(line: body.line, column: nil, field: nil, reason: problem.reason)
                }
            case .rejected(let line, let reason):
                sink.reject(line: line, column: nil, field: nil, reason: reason)
            }
        }
        sink.flush()
        stream.meter?.advance(bytes: source.size, rows: sink.rowsRead)
        let report = InputReport(
            path: path, format: .revenueCatSubscribers, kind: .customers, sizeBytes: Int64(source.storedSize),
            sha256: try source.sha256(), rowsRead: sink.rowsRead, rowsAccepted: sink.rowsAccepted,
            rowsRejected: sink.rejections.count, exactDuplicates: sink.exactDuplicates, sandboxRows: sink.sandboxRows)
        return (report, sink.rejections, active)
    }

    /// Reads the exports.
    private static func readExports(
        _ inputs: [RecognizedInput], appStore: Platform, into stream: RecordStream
    ) throws(GrandfatherError) -> SourceOutcome {
        let productTypes = stream.settings.policy.products.compactMapValues(\.type)
        let jobs = try rangeJobs(inputs, options: stream.options)

        // Pass 1: every range of every file parsed once, on every core, into spills.
        let parsed = ResultSlots<ExportFile.RangeRead>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let job = jobs[index]
            parsed.store(
                index,
                Result { () throws(GrandfatherError) in
                    try ExportFile.read(
                        job.source, header: job.header.names, delimiter: job.header.delimiter, range: job.range,
                        isFirst: job.isFirst,
                        productTypes: productTypes, appStore: appStore, meter: stream.meter)
                })
        }
        var reads: [ExportFile.RangeRead] = []
        for index in jobs.indices { reads.append(try parsed.take(index)) }
        var parts: [[ExportDeliveries.Delivery]] = []
        for index in reads.indices {
            parts.append(reads[index].deliveries)
            reads[index].deliveries = []
        }
        let deliveries = ExportDeliveries(&parts)
        // The deliveries took 16 bytes a row, now free but scattered through the heap: given
        // back before the ledger grows, so that the two do not add up to the run's peak.
        FreedMemory.giveBack()

        // Lines count from each range's start: a range's rows are later by the line breaks of
        // the file's ranges before it.
        var lineOffsets: [Int] = []
        var offset = 0
        for index in jobs.indices {
            if jobs[index].isFirst { offset = 0 }
            lineOffsets.append(offset)
            offset += reads[index].lineBreaks
        }

        let starts = lineOffsets
        // Pass 2: the latest deliveries fed to the stream, on every core; one more job per file
        // hashes it. The hashing jobs go first: each is one long sequential read, which the
        // ranges' jobs then fill the other cores around rather than leaving it last, alone.
        let fed = ResultSlots<Fed>(count: jobs.count + inputs.count)
        let spills = reads.map(\.spill)
        DispatchQueue.concurrentPerform(iterations: jobs.count + inputs.count) { order in
            guard order >= inputs.count else {
                let input = order
                fed.store(
                    jobs.count + input,
                    Result { () throws(GrandfatherError) in
                        let source = try ByteSource(path: inputs[input].description.path)
                        return Fed(digest: try source.sha256(), storedSize: Int64(source.storedSize))
                    })
                return
            }
            let index = order - inputs.count
            fed.store(
                index,
                Result { () throws(GrandfatherError) in
                    var sink = stream.sink(
                        file: jobs[index].source.path, kind: .transactions, customerSource: .exportRow)
                    var superseded = 0
                    try spills[index].read(lineOffset: starts[index]) { row, key, version in
                        if deliveries.isSuperseded(key: key, version: version) {
                            superseded += 1
                        } else {
                            sink.accept(row)
                        }
                    }
                    sink.flush()
                    return Fed(sink: sink, superseded: superseded)
                })
        }
        // Each range's batches and spill buffers, freed on the threads that fed them.
        FreedMemory.giveBack()

        var outcome = SourceOutcome()
        for (index, input) in inputs.enumerated() {
            var report = InputReport(
                path: input.description.path, format: .revenueCatExport, kind: .transactions,
                sizeBytes: 0, sha256: "", rowsRead: 0, rowsAccepted: 0, rowsRejected: 0, exactDuplicates: 0,
                sandboxRows: 0)
            // The file as stored: a gzip file's own size and digest.
            let stored = try fed.take(jobs.count + index)
            report.sizeBytes = stored.storedSize
            report.sha256 = stored.digest
            var rejections: [Rejection] = []
            for job in jobs.indices where jobs[job].input == index {
                let result = try fed.take(job)
                for var rejection in reads[job].rejections {
                    rejection.line += lineOffsets[job]
                    rejections.append(rejection)
                }
                rejections.append(contentsOf: result.rejections)
                report.rowsRead += result.rowsRead + result.superseded + reads[job].rejections.count
                report.rowsAccepted += result.rowsAccepted + result.superseded
                report.exactDuplicates += result.exactDuplicates
                report.sandboxRows += result.sandboxRows
                report.superseded += result.superseded
            }
            rejections.sort { $0.line < $1.line }
            report.rowsRejected = rejections.count
            outcome.files.append((report, rejections))
        }
        return outcome
    }

    /// Every range of every file, files in the order given.
    private static func rangeJobs(_ inputs: [RecognizedInput], options: IngestOptions) throws(GrandfatherError) -> [Job]
    {
        var jobs: [Job] = []
        for (index, input) in inputs.enumerated() {
            guard let header = input.detail as? ExportHeader else {
                throw .internal("\(input.description.path) has no RevenueCat export header")
            }
            let source = try ByteSource(path: input.description.path)
            let ranges = try RecordSplitter.ranges(
                for: source, format: .csv, parts: options.parts, minimumPartSize: options.minimumPartSize)
            for (part, range) in ranges.enumerated() {
                jobs.append(Job(input: index, source: source, header: header, range: range, isFirst: part == 0))
            }
        }
        return jobs
    }

    /// One range of one file.
    private struct Job: Sendable {
        var input: Int
        var source: ByteSource
        var header: ExportHeader
        var range: Range<Int>
        var isFirst: Bool
    }

    /// What feeding one range gave, or a file's digest.
    private struct Fed: Sendable {
        var rowsRead = 0
        var rowsAccepted = 0
        var exactDuplicates = 0
        var sandboxRows = 0
        var superseded = 0
        var rejections: [Rejection] = []
        var digest = ""
        var storedSize: Int64 = 0

        init(digest: String, storedSize: Int64) {
            self.digest = digest
            self.storedSize = storedSize
        }

        init(sink: IngestSink, superseded: Int) {
            rowsRead = sink.rowsRead
            rowsAccepted = sink.rowsAccepted
            exactDuplicates = sink.exactDuplicates
            sandboxRows = sink.sandboxRows
            rejections = sink.rejections
            self.superseded = superseded
        }
    }
}

/// An export's header as recognised: its column names and the byte between them.
struct ExportHeader: Sendable {
    var names: [String]
    var delimiter: UInt8

    /// The delimiters exports are written with, in the order they are tried.
    static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";")]
}
