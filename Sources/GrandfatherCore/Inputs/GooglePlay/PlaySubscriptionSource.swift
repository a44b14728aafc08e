import GrandfatherEngine

/// Google Play subscriptions: stored `subscriptionsv2` responses, real-time developer
/// notifications and voided purchases, told apart by the keys of their first value and weighed
/// together once every file is read (`PlaySubscriptionRules`). A response's transactions are
/// accounted at its line; a notification or void is evidence, accepted when it bears on a
/// token some response names.
enum PlaySubscriptionSource: InputSource {
    /// Which of the three a file holds.
    enum Shape: Sendable {
        case responses, notifications, voided

        var format: InputFormat {
            switch self {
            case .responses: .playSubscriptions
            case .notifications: .playNotifications
            case .voided: .playVoided
            }
        }
    }

    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let value = try file.firstJSONRecord() else { return nil }
        let shape: Shape
        if PlaySubscriptionResponse.recognizes(value) {
            shape = .responses
        } else if PlayNotice.recognizesNotification(value) {
            shape = .notifications
        } else if PlayNotice.recognizesVoided(value) {
            shape = .voided
        } else {
            return nil
        }
        let kind: RecordKind = shape == .responses ? .transactions : .evidence
        return RecognizedInput(
            description: file.describe(format: shape.format, kind: kind), source: Self.self, detail: shape)
    }

    /// One value read from a file: a response, a notice (with its redelivery's fingerprint when
    /// it came with a `messageId`), or what it came to.
    private enum Entry: Sendable {
        case snapshot(PlaySubscriptionRules.Snapshot)
        case notice(PlaySubscriptionRules.Notice, redelivery: UInt64?)
        case noted
        case rejected(String)
    }

    /// An entry and the line it was read at (a struct, not a tuple: an array of tuples looks up
    /// its type's metadata at run time, once per record).
    private struct Located: Sendable {
        var line: Int
        var entry: Entry

        init(_ line: Int, _ entry: Entry) {
            self.line = line
            self.entry = entry
        }
    }

    /// A response file's records by line, each a response's place among the run's or the
    /// reason it was rejected: responses are what must be kept (each token's), so they are kept
    /// once, in the run's list, never as a JSON tree.
    private struct FileRead {
        var input: RecognizedInput
        var source: ByteSource
        /// `source`'s SHA-256, taken while it was parsed.
        var digest: String
        var records: [(line: Int, read: Result<Int, Rejected>)]
    }

    private struct Rejected: Error {
        var reason: String
    }

    /// Reads every responses file first, so that each token's standing response is known;
    /// then streams the notifications and voids, each weighed as it is read
    /// (`PlaySubscriptionRules.NoticeFold`) and counted, none kept: memory holds the responses,
    /// a piece of a file, a fingerprint per message and two instants per token, whatever the
    /// notices' number. Each record is read alone, as it is streamed; what is folded together
    /// is folded in the run's order.
    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        guard !inputs.isEmpty else { return outcome }
        let sales = stream.settings.policy.sales
        let normalizer = stream.normalizer
        var reports: [Int: (InputReport, [Rejection])] = [:]
        var files: [(index: Int, file: FileRead)] = []
        var snapshots: [PlaySubscriptionRules.Snapshot] = []
        let responses = inputs.filter { $0.detail as? Shape == .responses }
        let digests = InputFile.digestsInBackground(of: responses.map(\.description.path))
        for (index, input) in inputs.enumerated() where input.detail as? Shape == .responses {
            var records: [(line: Int, read: Result<Int, Rejected>)] = []
            let source = try JSONDocuments.stream(at: input.description.path, what: "Google Play responses") { unit in
                Self.forEachEntry(of: unit, shape: .responses, sales: sales) { read in
                    let line = read.line
                    switch read.entry {
                    case .snapshot(var snapshot):
                        snapshot.customerID = snapshot.customerID.map(normalizer.customerID)
                        records.append((line, .success(snapshots.count)))
                        snapshots.append(snapshot)
                    case .rejected(let reason): records.append((line, .failure(Rejected(reason: reason))))
                    case .notice, .noted: break
                    }
                }
            }
            stream.meter?.advance(bytes: source.size, rows: records.count)
            let digest = try digests.take(files.count)
            files.append((index, FileRead(input: input, source: source, digest: digest, records: records)))
        }
        let standing = PlaySubscriptionRules.Standing(snapshots)
        snapshots = []

        var notices = PlaySubscriptionRules.NoticeFold()
        var messages: Set<UInt64> = []
        for (index, input) in inputs.enumerated() {
            guard let shape = input.detail as? Shape, shape != .responses else { continue }
            let path = input.description.path
            var rejections: [Rejection] = []
            var rows = 0
            var duplicates = 0
            let source = try JSONDocuments.stream(at: path, what: "Google Play \(shape.format)") { unit in
                Self.forEachEntry(of: unit, shape: shape, sales: sales) { read in
                    let line = read.line
                    rows += 1
                    switch read.entry {
                    case .rejected(let reason): rejections.append(Rejection(file: path, line: line, reason: reason))
                    case .notice(let notice, let redelivery):
                        if let redelivery, !messages.insert(redelivery).inserted {
                            duplicates += 1
                        } else if case .rejected(let reason) = notices.add(
                            notice, standing: standing.response(for: notice.token))
                        {
                            rejections.append(Rejection(file: path, line: line, reason: reason))
                        }
                    case .snapshot, .noted: break
                    }
                }
            }
            stream.meter?.advance(bytes: source.size, rows: rows)
            let report = InputReport(
                path: path, format: shape.format, kind: input.description.kind,
                sizeBytes: Int64(source.storedSize), sha256: try InputFile.sha256(of: source),
                rowsRead: rows, rowsAccepted: rows - rejections.count, rowsRejected: rejections.count,
                exactDuplicates: duplicates, sandboxRows: 0)
            reports[index] = (report, rejections)
        }

        let weighing = Weighing(
            standing: standing, chains: PlaySubscriptionRules.Chains(standing), notices: notices,
            productTypes: stream.settings.policy.products.compactMapValues(\.type))
        for (index, file) in files {
            reports[index] = try account(file, weighing, into: stream, unlinked: &outcome.unlinkedCustomers)
        }
        for index in inputs.indices {
            guard let report = reports[index] else { throw .internal("\(inputs[index].description.path) was not read") }
            outcome.files.append(report)
        }
        return outcome
    }

    /// What every response is weighed against once all files are read.
    private struct Weighing {
        var standing: PlaySubscriptionRules.Standing
        var chains: PlaySubscriptionRules.Chains
        var notices: PlaySubscriptionRules.NoticeFold
        var productTypes: [String: ProductType]
    }

    /// A responses file's accounting: each response's transactions fed at its line, and each
    /// row accepted, rejected or superseded.
    private static func account(
        _ file: FileRead, _ weighing: Weighing, into stream: RecordStream, unlinked: inout Set<String>
    ) throws(GrandfatherError) -> (InputReport, [Rejection]) {
        let path = file.input.description.path
        var sink = stream.sink(
            file: path, kind: .transactions, customerSource: .playSubscription, foldsInBackground: true)
        var rejections: [Rejection] = []
        var report = InputReport(
            path: path, format: PlaySubscriptionSource.Shape.responses.format, kind: file.input.description.kind,
            sizeBytes: Int64(file.source.storedSize), sha256: file.digest,
            rowsRead: file.records.count, rowsAccepted: 0, rowsRejected: 0, exactDuplicates: 0, sandboxRows: 0)
        for (line, read) in file.records {
            let place: Int
            switch read {
            case .failure(let rejected):
                rejections.append(Rejection(file: path, line: line, reason: rejected.reason))
                continue
            case .success(let at): place = at
            }
            let before = sink.rejections.count
            let weighed = PlaySubscriptionMapping.transactions(
                at: place, of: weighing.standing, chains: weighing.chains, notices: weighing.notices,
                productTypes: weighing.productTypes
            ) { mapped in
                sink.accept(transaction: mapped.record, texts: mapped.texts, line: line)
            }
            var rejection: Rejection?
            switch weighed.use {
            case .rejected(let reason)?: rejection = Rejection(file: path, line: line, reason: reason)
            case .superseded?: report.superseded += 1
            case .noted?, nil: break
            }
            if let customer = weighed.unlinked { unlinked.insert(customer) }
            // A row is rejected once, for the first reason found (a response's second line
            // item may fail a check its first passed). Rows may share a line: each counts.
            if rejection == nil, sink.rejections.count > before { rejection = sink.rejections[before] }
            if let rejection { rejections.append(rejection) }
        }
        sink.flush()
        report.rowsRejected = rejections.count
        report.rowsAccepted = report.rowsRead - report.rowsRejected
        report.sandboxRows = sink.sandboxRows
        return (report, rejections)
    }

    /// A notification as Pub/Sub may deliver it again: its `messageId` and what it says, as one
    /// 64-bit fingerprint (a million messages keep 8 bytes each; docs/Decisions.md gives the
    /// odds of two sharing one).
    private static func redelivery(_ messageID: String, _ notice: PlaySubscriptionRules.Notice) -> UInt64 {
        var hash = StableHash()
        hash.combine(messageID)
        hash.combine(notice.token)
        hash.combine(notice.at)
        switch notice.event {
        case .subscription(let type):
            hash.combine(1)
            hash.combine(UInt64(bitPattern: Int64(type)))
        case .voided(let order):
            hash.combine(2)
            hash.combine(order)
        }
        return hash.value
    }

    /// The entries one top-level value gives, handed to `body` one at a time (no list made
    /// for each of a file's records), each notification with its redelivery's fingerprint:
    /// one whose `messageId` was seen already saying the same is a redelivery; one that says
    /// something else under a seen `messageId` is weighed too, so that which file or line
    /// came first never decides what a customer is.
    private static func forEachEntry(
        of unit: JSONDocuments.Unit, shape: Shape, sales: SalesPolicy, _ body: (Located) -> Void
    ) {
        let value: JSONValue.Located
        switch unit {
        case .rejected(let line, let reason): return body(Located(line, .rejected(reason)))
        case .element(let element): value = element
        }
        switch shape {
        case .responses:
            PlaySubscriptionResponse.forEachEntry(value) { entry in
                switch PlaySubscriptionResponse.read(entry, sales: sales) {
                case .success(let snapshot): body(Located(entry.body.line, .snapshot(snapshot)))
                case .failure(let problem): body(Located(entry.body.line, .rejected(problem.reason)))
                }
            }
        case .notifications:
            switch PlayNotice.notificationEntries(value) {
            case .failure(let problem): body(Located(value.line, .rejected(problem.reason)))
            case .success(let list):
                for entry in list {
                    switch PlayNotice.notification(entry, sales: sales) {
                    case .success(.notice(let notice, let messageID)):
                        body(Located(entry.line, .notice(notice, redelivery: messageID.map { redelivery($0, notice) })))
                    case .success(.noted): body(Located(entry.line, .noted))
                    case .failure(let problem): body(Located(entry.line, .rejected(problem.reason)))
                    }
                }
            }
        case .voided:
            switch PlayNotice.voidedEntries(value) {
            case .failure(let problem): body(Located(value.line, .rejected(problem.reason)))
            case .success(let list):
                for entry in list {
                    switch PlayNotice.voided(entry) {
                    case .success(.notice(let notice, _)): body(Located(entry.line, .notice(notice, redelivery: nil)))
                    case .success(.noted): body(Located(entry.line, .noted))
                    case .failure(let problem): body(Located(entry.line, .rejected(problem.reason)))
                    }
                }
            }
        }
    }
}
