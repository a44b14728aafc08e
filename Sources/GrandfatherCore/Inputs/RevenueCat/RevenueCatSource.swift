import Dispatch
import GrandfatherEngine

extension InputFormat {
    /// RevenueCat's Scheduled Data Export (the transactions feed), CSV.
    public static let revenueCatExport = InputFormat(rawValue: "revenuecat-export")
}

/// RevenueCat's exports (FORMATS.md §a–c). A Scheduled Data Export is told by its header,
/// which names every required column; its rows are read into typed records
/// (`ExportTransaction`, `MappedTransaction`) that reach the record stream through the
/// sink's typed door.
///
/// A transaction may be delivered more than once, in one file or across a run's files, so
/// the rows are fed only once every file is read: each range of each file is parsed once, on
/// every core, into a spill of typed records, the deliveries of every row are compared, and
/// then the spills are fed to the stream, the superseded rows counted and left out.
enum RevenueCatSource: InputSource {
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let first = file.firstNonBlank else { return nil }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") { return try recognizeJSON(&file) }
        // The transactions feed writes commas; older Scheduled Data Exports, semicolons.
        for delimiter in ExportHeader.delimiters {
            guard
                let names = try Records.header(of: file.source, delimiter: delimiter)
            else { continue }
            let header = ExportHeader(names: names, delimiter: delimiter)
            if ExportFile.recognizes(header: names) || CustomerList.recognizes(header: names) {
                try CSVHeaderRule.checkEachNamedOnce(names, path: file.path)
            }
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

    /// Subscriber responses or webhook events, told by the keys of the first object.
    private static func recognizeJSON(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let object = try file.firstJSONRecord() else { return nil }
        if WebhookEvent.recognizes(keys: object.keys) {
            return RecognizedInput(
                description: file.describe(format: .revenueCatWebhooks, kind: .customers),
                source: RevenueCatWebhookSource.self, detail: ())
        }
        guard SubscriberResponse.recognizes(keys: object.keys) else { return nil }
        return RecognizedInput(
            description: file.describe(format: .revenueCatSubscribers, kind: .customers), source: Self.self,
            detail: ())
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        let appStore = stream.settings.policy.apple.defaultPlatform ?? .ios
        let productTypes = stream.settings.policy.products.compactMapValues(\.type)
        var outcome = SourceOutcome()
        var files = [(report: InputReport, rejections: [Rejection])?](repeating: nil, count: inputs.count)
        // The transactions of subscriber responses and exports, as deliveries (SPEC §9): fed
        // once every file is read, the latest delivery of each transaction only.
        var delivered = DeliveredRows()
        // Every subscriber response of the run weighed before any is read into records.
        var standing = weighResponses(inputs, appStore: appStore, asOf: stream.settings.asOf)
        for index in inputs.indices {
            switch inputs[index].description.format {
            case .revenueCatCustomerList:
                files[index] = try readCustomerList(inputs[index], appStore: appStore, into: stream)
            case .revenueCatSubscribers:
                let read = try readSubscribers(
                    inputs[index], input: index, standing: standing, appStore: appStore,
                    productTypes: productTypes, into: stream)
                files[index] = (read.report, read.rejections)
                delivered.ranges.append(read.purchases.range)
                delivered.parts.append(read.purchases.deliveries)
                outcome.findings.handOn(ServiceEntitlements(byCustomer: read.active))
                outcome.findings.handOn(read.rowEntitlements)
                delivered.evidence.merge(read.evidence)
            default: break
            }
        }
        standing = SubscriberResponseRules.Standing()
        let exports = inputs.indices.filter { inputs[$0].description.format == .revenueCatExport }
        let digests = try parseExports(
            exports.map { (index: $0, input: inputs[$0]) }, appStore: appStore, productTypes: productTypes,
            options: stream.options, meter: stream.meter, into: &delivered)
        for index in exports {
            // The file as stored: a gzip file's own size and digest.
            files[index] = (
                InputReport(
                    path: inputs[index].description.path, format: .revenueCatExport, kind: .transactions,
                    sizeBytes: digests[index]?.storedSize ?? 0, sha256: digests[index]?.digest ?? "", rowsRead: 0,
                    rowsAccepted: 0, rowsRejected: 0, exactDuplicates: 0, sandboxRows: 0),
                []
            )
        }
        outcome.findings.handOn(delivered.rowEntitlements)
        let products = ProductFacts(
            delivered.evidence, policy: productTypes,
            termed: Set(stream.settings.policy.products.filter { $0.value.termDays != nil }.keys))
        let fed = try feed(&delivered, products: products, into: stream)
        var touched: [Int: Set<UInt64>] = [:]
        for range in fed { touched.merge(range.touched) { $0.union($1) } }
        let findings = ProductFindings.findings(
            products.decisions,
            customers: Dictionary(
                touched.compactMap { key, customers in products.listed[key].map { ($0, customers.count) } },
                uniquingKeysWith: +))
        outcome.findings.handOn(ProductFindings.Listed(findings: findings))
        for (range, result) in zip(delivered.ranges, fed) {
            guard var file = files[range.input] else { continue }
            file.rejections += range.rejections + result.rejections
            file.report.rowsRead += result.rowsRead + result.superseded + range.rejections.count
            file.report.rowsAccepted += result.rowsAccepted + result.superseded
            file.report.exactDuplicates += result.exactDuplicates
            file.report.sandboxRows += result.sandboxRows
            file.report.superseded += result.superseded
            files[range.input] = file
        }
        for index in inputs.indices {
            guard var file = files[index] else { continue }
            file.rejections.sort { $0.line < $1.line }
            file.report.rowsRejected = file.rejections.count
            outcome.files.append(file)
        }
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
        let source = try InputFile.open(input.description.path)
        var sink = stream.sink(file: input.description.path, kind: .customers, customerSource: .customerList)
        try CustomerListFile.read(source, header: header, appStore: appStore, into: &sink, meter: stream.meter)
        sink.flush()
        let report = InputReport(
            path: input.description.path, format: .revenueCatCustomerList, kind: .customers,
            sizeBytes: Int64(source.storedSize), sha256: try InputFile.sha256(of: source),
            rowsRead: sink.rowsRead,
            rowsAccepted: sink.rowsAccepted, rowsRejected: sink.rejections.count,
            exactDuplicates: sink.exactDuplicates, sandboxRows: sink.sandboxRows)
        return (report, sink.rejections)
    }

    /// What a subscriber-response file gave: its bodies' accounting and rejections, what
    /// RevenueCat has active, and its purchases, to be fed with the exports' rows.
    private struct SubscribersRead {
        var report: InputReport
        var rejections: [Rejection]
        var active: [String: Set<String>]
        var purchases: (range: DeliveredRange, deliveries: [ExportDeliveries.Delivery])
        /// What the responses say each product of their purchases unlocks.
        var rowEntitlements: RowEntitlements
        /// What the responses' shapes imply of each product's type.
        var evidence: ProductEvidence
    }

    /// Weighs every subscriber response of the run before any is read into records: which body
    /// stands for each id (`SubscriberResponseRules`). Each file is streamed a piece at a time,
    /// every body weighed as it is parsed, and streamed again when it is read into records:
    /// memory holds a piece of a file and a few words per subscriber, never a file's tree,
    /// for the cost of parsing each body twice. A file that cannot be read fails the run where
    /// it is read into records, in the order given.
    private static func weighResponses(
        _ inputs: [RecognizedInput], appStore: Platform, asOf: Instant
    ) -> SubscriberResponseRules.Standing {
        typealias Rules = SubscriberResponseRules
        let files = inputs.indices.filter { inputs[$0].description.format == .revenueCatSubscribers }
        var standing = Rules.Standing()
        for index in files {
            var place = 0
            _ = try? JSONDocuments.stream(
                at: inputs[index].description.path, what: "subscriber responses",
                map: { unit -> Weighed? in
                    guard case .element(let body) = unit else { return nil }
                    return weighed(body, appStore: appStore, asOf: asOf)
                }
            ) { body in
                if let body {
                    standing.weigh(
                        Rules.Body(
                            requested: body.requested, content: body.content,
                            place: Rules.Place(file: index, body: place)),
                        of: body.id)
                }
                place += 1
            }
        }
        return standing
    }

    /// What weighing a body needs of it: its customer's id, when it was fetched, and its
    /// content's fingerprint.
    private typealias Weighed = (id: String, requested: Instant?, content: UInt64)

    /// What weighing `body` needs of it; `nil` when it weighs nothing: it does not read, or its
    /// customer's texts do not pass the sink's checks (`IngestSink.problem(of:)`), so that it
    /// is rejected when read into records.
    private static func weighed(_ body: JSONValue.Located, appStore: Platform, asOf: Instant) -> Weighed? {
        guard case .success(let read) = SubscriberResponse.read(body, appStore: appStore, asOf: asOf, purchases: false),
            IngestSink.problem(of: read.customer) == nil
        else { return nil }
        return (read.customer.id, read.requested, SubscriberResponseRules.content(of: body.value))
    }

    /// Reads a file of subscriber responses, streamed a piece at a time: each body a row giving
    /// a customer, in file order, and each of its purchases a typed record. A body another of
    /// its id stands over (`standing`) is accepted and counted, its purchases too, and none of
    /// it is used.
    private static func readSubscribers(
        _ input: RecognizedInput, input index: Int, standing: SubscriberResponseRules.Standing,
        appStore: Platform, productTypes: [String: ProductType], into stream: RecordStream
    ) throws(GrandfatherError) -> SubscribersRead {
        let path = input.description.path
        var active: [String: Set<String>] = [:]
        var sink = stream.sink(file: path, kind: .customers, customerSource: .subscriberResponse)
        let spill = try Spills.make(fieldCount: MappedSpill.fieldCount, for: path)
        var writer = RowSpill.Writer(spill)
        var deliveries: [ExportDeliveries.Delivery] = []
        var rejected: [Rejection] = []
        var rowEntitlements = RowEntitlements()
        var evidence = ProductEvidence()
        // The rows of bodies another stands over: their own and their purchases'.
        var replaced = (rows: 0, exactDuplicates: 0, superseded: 0)
        /// A purchase read as the export row it would be, or why it cannot be.
        func transaction(
            _ purchase: Result<SubscriberPurchases.Entry, SubscriberPurchases.Problem>
        ) -> Result<(SubscriberPurchases.Entry, ExportTransaction), SubscriberPurchases.Problem> {
            purchase.flatMap { entry in
                ExportTransaction.read(entry.values, productTypes: productTypes)
                    .map { (entry, $0) }
                    .mapError {
                        SubscriberPurchases.Problem(
                            line: entry.line, reason: SubscriberPurchases.reason($0, path: entry.path))
                    }
            }
        }
        /// One top-level value, the `place`-th of the file (as `weighResponses` counted them).
        func read(_ unit: JSONDocuments.Unit, place: Int) throws(GrandfatherError) {
            switch unit {
            case .element(let body):
                switch SubscriberResponse.read(body, appStore: appStore, asOf: stream.settings.asOf) {
                case .success(let read):
                    let use =
                        IngestSink.problem(of: read.customer) != nil
                        ? .stands
                        : standing.use(
                            of: read.customer.id, at: SubscriberResponseRules.Place(file: index, body: place),
                            requested: read.requested
                        ) { SubscriberResponseRules.content(of: body.value) }
                    guard use == .stands else {
                        // Superseded whole (or an exact duplicate): the body and each purchase
                        // that reads are accepted rows, none of them used; a purchase that
                        // does not read is rejected, as in any body.
                        var rows = 1
                        for purchase in read.purchases {
                            switch transaction(purchase) {
                            case .success: rows += 1
                            case .failure(let problem):
                                rejected.append(
                                    Rejection(
                                        file: path, line: problem.line, column: nil, field: nil, reason: problem.reason)
                                )
                            }
                        }
                        replaced.rows += rows
                        if use == .exactDuplicate {
                            replaced.exactDuplicates += rows
                        } else {
                            replaced.superseded += rows
                        }
                        return
                    }
                    sink.accept(customer: read.customer, line: body.line)
                    active[read.customer.id, default: []].formUnion(read.active)
                    // Of each product's items an entitlement shows an end for, the latest
                    // purchase (every copy of it): the end is its term, as the entitlement is
                    // as old as its latest purchase.
                    var latestItems: [String: Instant] = [:]
                    for purchase in read.purchases {
                        guard case .success(let entry) = purchase, entry.entitlementEnds != nil,
                            let purchased = entry.values.read(.startTime, RevenueCatValue.time) ?? nil,
                            latestItems[entry.product].map({ purchased > $0 }) ?? true
                        else { continue }
                        latestItems[entry.product] = purchased
                    }
                    for purchase in read.purchases {
                        switch transaction(purchase) {
                        case .success(let (entry, read)):
                            // The response's shape says what it implies of the product's
                            // type, which the export's reading of its values cannot know.
                            var transaction = read
                            transaction.statedType = entry.statedType
                            if productTypes[entry.product] == nil {
                                transaction.productType = entry.statedType ?? .consumable
                                transaction.typeSource = entry.statedType != nil ? .response : .fallback
                            }
                            transaction.note(entry.values, source: .response, into: &evidence)
                            let delivery = ExportDeliveries.Delivery(transaction)
                            writer.begin(line: entry.line, key: delivery.key, version: delivery.version)
                            var mapped = transaction.mapped(shape: entry.shape, appStore: appStore)
                            if let latest = latestItems[entry.product], latest == transaction.purchased,
                                mapped.productType == .nonRenewing
                            {
                                mapped.termEnds = entry.entitlementEnds
                            }
                            MappedSpill.setValues(of: mapped, in: writer)
                            transaction.writeTexts(entry.values, into: &writer)
                            try Spills.end(writer)
                            deliveries.append(delivery)
                            transaction.note(entry.values, into: &rowEntitlements)
                        case .failure(let problem):
                            rejected.append(
                                Rejection(
                                    file: path, line: problem.line, column: nil, field: nil, reason: problem.reason))
                        }
                    }
                case .failure(let problem):
                    // The body is the row: rejected at the line it starts on.
                    sink.reject(line: body.line, column: nil, field: nil, reason: problem.reason)
                }
            case .rejected(let line, let reason):
                sink.reject(line: line, column: nil, field: nil, reason: reason)
            }
        }
        var place = 0
        var failure: GrandfatherError?
        let source = try JSONDocuments.stream(at: path, what: "subscriber responses") { unit in
            defer { place += 1 }
            guard failure == nil else { return }
            do throws(GrandfatherError) { try read(unit, place: place) } catch { failure = error }
        }
        if let failure { throw failure }
        sink.flush()
        try Spills.flush(writer)
        ExportDeliveries.group(&deliveries)
        stream.meter?.advance(bytes: source.size, rows: sink.rowsRead + replaced.rows)
        var report = InputReport(
            path: path, format: .revenueCatSubscribers, kind: .customers, sizeBytes: Int64(source.storedSize),
            sha256: try InputFile.sha256(of: source), rowsRead: sink.rowsRead + replaced.rows,
            rowsAccepted: sink.rowsAccepted + replaced.rows, rowsRejected: 0,
            exactDuplicates: sink.exactDuplicates + replaced.exactDuplicates, sandboxRows: sink.sandboxRows)
        report.superseded = replaced.superseded
        return SubscribersRead(
            report: report, rejections: sink.rejections, active: active,
            purchases: (
                DeliveredRange(input: index, path: path, spill: spill, lineOffset: 0, rejections: rejected), deliveries
            ), rowEntitlements: rowEntitlements, evidence: evidence)
    }

    /// Typed records kept in spills until every file is read, with the delivery of each.
    private struct DeliveredRows {
        var ranges: [DeliveredRange] = []
        /// Each range's deliveries, grouped by bucket (`ExportDeliveries.group`).
        var parts: [[ExportDeliveries.Delivery]] = []
        /// What the exports' rows say each product unlocks.
        var rowEntitlements = RowEntitlements()
        /// What every row says of each product's type.
        var evidence = ProductEvidence()
    }

    /// One range of one input's rows in a spill: the rejections found laying them out (at
    /// their lines in the file), and how much later than the spill's lines they lie.
    private struct DeliveredRange {
        var input: Int
        var path: String
        var spill: RowSpill
        var lineOffset: Int
        var rejections: [Rejection]
    }

    /// Parses every range of every export, a file at a time on every core, into spills, and
    /// returns each file's stored size and SHA-256, by its place among the run's inputs.
    ///
    /// As `FileIngest` reads a canonical file (`RangedRead`): job 0 reads the file once, hashing
    /// it and finding where its ranges are cut, while jobs 1… parse each range as soon as its
    /// ends are known. Cut first and hashed apart, an export was read twice, and its cut scan
    /// ran alone before any parser could start.
    private static func parseExports(
        _ inputs: [(index: Int, input: RecognizedInput)], appStore: Platform, productTypes: [String: ProductType],
        options: IngestOptions, meter: ProgressMeter?, into delivered: inout DeliveredRows
    ) throws(GrandfatherError) -> [Int: (storedSize: Int64, digest: String)] {
        var digests: [Int: (storedSize: Int64, digest: String)] = [:]
        for (index, input) in inputs {
            guard let header = input.detail as? ExportHeader else {
                throw .internal("\(input.description.path) has no RevenueCat export header")
            }
            let source = try InputFile.open(input.description.path)
            let plan = try Ranges.plan(
                source, layout: .csv, cut: true, parts: options.parts, minimumPartSize: options.minimumPartSize)
            let parsed = ResultSlots<ExportFile.RangeRead?, GrandfatherError>(count: plan.jobs)
            let digest = ResultSlots<String, GrandfatherError>(count: 1)
            DispatchQueue.concurrentPerform(iterations: plan.jobs) { job in
                guard job > 0 else {
                    digest.store(0, Result { () throws(GrandfatherError) in try Ranges.digest(of: plan) })
                    return
                }
                parsed.store(
                    job,
                    Result { () throws(GrandfatherError) in
                        guard let range = try Ranges.range(of: plan, job: job) else { return nil }
                        return try ExportFile.read(
                            source, header: header.names, delimiter: header.delimiter, range: range,
                            isFirst: job == 1, productTypes: productTypes, appStore: appStore, meter: meter)
                    })
            }
            digests[index] = (Int64(source.storedSize), try digest.take(0))
            // Lines count from each range's start: a range's rows are later by the line breaks
            // of the file's ranges before it.
            var offset = 0
            for job in 1..<plan.jobs {
                guard var read = try parsed.take(job) else { continue }
                for rejection in read.rejections.indices { read.rejections[rejection].line += offset }
                delivered.ranges.append(
                    DeliveredRange(
                        input: index, path: source.path, spill: read.spill, lineOffset: offset,
                        rejections: read.rejections))
                delivered.parts.append(read.deliveries)
                delivered.rowEntitlements.merge(read.rowEntitlements)
                delivered.evidence.merge(read.evidence)
                offset += read.lineBreaks
            }
        }
        return digests
    }

    /// Feeds every transaction to the stream, range by range on every core: per range, what
    /// feeding it gave. A transaction delivered once is fed as it is read; the
    /// deliveries of one delivered more than once are kept aside and, once every range is
    /// read, merged field by field (`RedeliveryRules`): the latest are fed, the others counted
    /// as superseded.
    /// The deliveries are moved out of `delivered`, so that each range's array is freed as
    /// soon as it is merged, before the ledger grows.
    private static func feed(
        _ delivered: inout DeliveredRows, products: ProductFacts, into stream: RecordStream
    ) throws(GrandfatherError) -> [Fed] {
        var parts = delivered.parts
        delivered.parts = []
        // What the rows' deliveries took, and a floor for what feeding them frees below.
        let deliveryBytes = parts.reduce(0) { $0 + $1.count } * MemoryLayout<ExportDeliveries.Delivery>.stride
        let deliveries = ExportDeliveries(&parts)
        // The deliveries took 16 bytes a row, now free but scattered through the heap: given
        // back before the ledger grows, so that the two do not add up to the run's peak.
        FreedMemory.giveBack(freed: deliveryBytes)

        let ranges = delivered.ranges
        let fed = ResultSlots<Fed, GrandfatherError>(count: ranges.count)
        DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
            fed.store(
                index,
                Result { () throws(GrandfatherError) in
                    let range = ranges[index]
                    var sink = stream.sink(
                        file: range.path, kind: .transactions, customerSource: .exportRow)
                    var repeated: [Repeated] = []
                    // The customers of each product the reports list, by hashes of their ids.
                    var touched: [Int: Set<UInt64>] = [:]
                    try Spills.read(range.spill, lineOffset: range.lineOffset) { row, key, version in
                        var record = MappedSpill.record(row)
                        let texts = MappedSpill.Texts(row: row)
                        products.decide(&record, texts: texts)
                        if let product = products.listedKey(texts),
                            let customer = texts.read(.customerID, StableHash.of)
                        {
                            touched[product, default: []].insert(customer)
                        }
                        if deliveries.isRepeated(key: key) {
                            repeated.append(
                                Repeated(
                                    key: key, line: row.line,
                                    delivery: RedeliveryRules.Delivery(
                                        record: record, texts: OwnedTransactionTexts(MappedSpill.Texts(row: row)),
                                        version: version)))
                        } else {
                            sink.accept(transaction: record, texts: MappedSpill.Texts(row: row), line: row.line)
                        }
                    }
                    sink.flush()
                    var result = Fed(sink: sink, repeated: repeated)
                    result.touched = touched
                    return result
                })
        }
        // Each range's batches and spill buffers, freed on the threads that fed them.
        FreedMemory.giveBack(freed: deliveryBytes)
        var result: [Fed] = []
        for index in ranges.indices { result.append(try fed.take(index)) }
        feedMerged(&result, ranges: ranges, into: stream)
        return result
    }

    /// Merges the deliveries of each transaction delivered more than once, kept aside by
    /// every range, and feeds the latest to the stream, each accounted for in the range (and
    /// at the line) it was read from.
    private static func feedMerged(_ fed: inout [Fed], ranges: [DeliveredRange], into stream: RecordStream) {
        // Every delivery of a key, in range order and then line order: the order read.
        var byKey: [Int: [(range: Int, repeated: Int)]] = [:]
        for range in fed.indices {
            for (index, repeated) in fed[range].repeated.enumerated() {
                byKey[repeated.key, default: []].append((range, index))
            }
        }
        var kept = [[(line: Int, delivery: RedeliveryRules.Delivery)]](repeating: [], count: fed.count)
        for members in byKey.values {
            let merged = RedeliveryRules.latest(members.map { fed[$0.range].repeated[$0.repeated].delivery })
            var isKept = Set<Int>()
            for (index, delivery) in merged.kept {
                let member = members[index]
                kept[member.range].append((fed[member.range].repeated[member.repeated].line, delivery))
                isKept.insert(index)
            }
            for index in members.indices where !isKept.contains(index) { fed[members[index].range].superseded += 1 }
        }
        for range in fed.indices {
            fed[range].repeated = []
            guard !kept[range].isEmpty else { continue }
            var sink = stream.sink(file: ranges[range].path, kind: .transactions, customerSource: .exportRow)
            for (line, delivery) in kept[range].sorted(by: { $0.line < $1.line }) {
                sink.accept(transaction: delivery.record, texts: delivery.texts, line: line)
            }
            sink.flush()
            fed[range].add(sink)
        }
    }

    /// A delivery of a transaction delivered more than once, kept aside by its range.
    private struct Repeated: Sendable {
        var key: Int
        var line: Int
        var delivery: RedeliveryRules.Delivery
    }

    /// What feeding one range gave.
    private struct Fed: Sendable {
        var rowsRead = 0
        var rowsAccepted = 0
        var exactDuplicates = 0
        var sandboxRows = 0
        var superseded = 0
        var rejections: [Rejection] = []

        /// Deliveries of transactions delivered more than once, for `feedMerged`.
        var repeated: [Repeated] = []
        /// The customers of each product the reports list (`ProductFacts.listed`).
        var touched: [Int: Set<UInt64>] = [:]

        init(sink: IngestSink, repeated: [Repeated]) {
            self.repeated = repeated
            add(sink)
        }

        mutating func add(_ sink: IngestSink) {
            rowsRead += sink.rowsRead
            rowsAccepted += sink.rowsAccepted
            exactDuplicates += sink.exactDuplicates
            sandboxRows += sink.sandboxRows
            rejections += sink.rejections
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
