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

    /// One value read from a file: a response, a notice, or what it came to.
    private enum Entry {
        case snapshot(PlaySubscriptionRules.Snapshot)
        case notice(PlaySubscriptionRules.Notice)
        case noted
        case duplicate
        case rejected(String)
    }

    /// A responses file's entries, by line, with its source: responses are what must be kept
    /// (each token's), so a responses file is kept whole in entries, never as a JSON tree.
    private struct FileRead {
        var input: RecognizedInput
        var source: ByteSource
        var entries: [(line: Int, entry: Entry)] = []
    }

    /// Reads every responses file first, so that each token's standing response is known;
    /// then streams the notifications and voids, each weighed as it is read
    /// (`PlaySubscriptionRules.NoticeFold`) and counted, none kept: memory holds the responses,
    /// a piece of a file, a fingerprint per message and two instants per token, whatever the
    /// notices' number.
    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        guard !inputs.isEmpty else { return outcome }
        let sales = stream.settings.policy.sales
        var reports: [Int: (InputReport, [Rejection])] = [:]
        var files: [(index: Int, file: FileRead)] = []
        var messages: Set<UInt64> = []
        for (index, input) in inputs.enumerated() where input.detail as? Shape == .responses {
            var read: [(line: Int, entry: Entry)] = []
            let source = try JSONDocuments.stream(at: input.description.path, what: "Google Play responses") {
                read += Self.entries(of: $0, shape: .responses, sales: sales, messages: &messages)
            }
            stream.meter?.advance(bytes: source.size, rows: read.count)
            files.append((index, FileRead(input: input, source: source, entries: read)))
        }

        var snapshots: [(place: PlaySubscriptionRules.Place, snapshot: PlaySubscriptionRules.Snapshot)] = []
        for (order, (_, file)) in files.enumerated() {
            for (record, (_, entry)) in file.entries.enumerated() {
                guard case .snapshot(var snapshot) = entry else { continue }
                snapshot.customerID = snapshot.customerID.map(stream.normalizer.customerID)
                snapshots.append((PlaySubscriptionRules.Place(file: order, record: record), snapshot))
            }
        }
        let standing = PlaySubscriptionRules.Standing(snapshots)

        var notices = PlaySubscriptionRules.NoticeFold()
        for (index, input) in inputs.enumerated() {
            guard let shape = input.detail as? Shape, shape != .responses else { continue }
            let path = input.description.path
            var rejections: [Rejection] = []
            var rows = 0
            var duplicates = 0
            let source = try JSONDocuments.stream(at: path, what: "Google Play \(shape.format)") { unit in
                for (line, entry) in Self.entries(of: unit, shape: shape, sales: sales, messages: &messages) {
                    rows += 1
                    switch entry {
                    case .rejected(let reason): rejections.append(Rejection(file: path, line: line, reason: reason))
                    case .duplicate: duplicates += 1
                    case .notice(let notice):
                        if case .rejected(let reason) = notices.add(
                            notice, standing: standing.responses[notice.token]?.snapshot)
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
                sizeBytes: Int64(source.storedSize), sha256: try engineWork { try source.sha256() },
                rowsRead: rows, rowsAccepted: rows - rejections.count, rowsRejected: rejections.count,
                exactDuplicates: duplicates, sandboxRows: 0)
            reports[index] = (report, rejections)
        }

        let weighed = PlaySubscriptionRules.transactions(
            standing: standing, notices: notices, productTypes: stream.settings.policy.products.compactMapValues(\.type)
        )
        outcome.unlinkedCustomers = weighed.unlinkedCustomers
        var transactions = weighed.transactions[...]
        for (order, (index, file)) in files.enumerated() {
            reports[index] = try account(
                file, order: order, uses: weighed.uses, transactions: &transactions, into: stream)
        }
        for index in inputs.indices {
            guard let report = reports[index] else { throw .internal("\(inputs[index].description.path) was not read") }
            outcome.files.append(report)
        }
        return outcome
    }

    /// A responses file's accounting: each response's transactions fed at its line, and each
    /// row accepted, rejected or superseded.
    private static func account(
        _ file: FileRead, order: Int, uses: [PlaySubscriptionRules.Place: PlaySubscriptionRules.Use],
        transactions: inout ArraySlice<PlaySubscriptionRules.Mapped>, into stream: RecordStream
    ) throws(GrandfatherError) -> (InputReport, [Rejection]) {
        let path = file.input.description.path
        var sink = stream.sink(file: path, kind: .transactions, customerSource: .playSubscription)
        var rejections: [Rejection] = []
        var report = InputReport(
            path: path, format: PlaySubscriptionSource.Shape.responses.format, kind: file.input.description.kind,
            sizeBytes: Int64(file.source.storedSize), sha256: try engineWork { try file.source.sha256() },
            rowsRead: file.entries.count, rowsAccepted: 0, rowsRejected: 0, exactDuplicates: 0, sandboxRows: 0)
        for (record, (line, entry)) in file.entries.enumerated() {
            let place = PlaySubscriptionRules.Place(file: order, record: record)
            var rejection: Rejection?
            switch (entry, uses[place]) {
            case (.rejected(let reason), _), (_, .rejected(let reason)?):
                rejection = Rejection(file: path, line: line, reason: reason)
            case (_, .superseded?):
                report.superseded += 1
            default:
                break
            }
            let before = sink.rejections.count
            while let next = transactions.first, next.place == place {
                sink.accept(transaction: next.record, texts: next.texts, line: line)
                transactions.removeFirst()
            }
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

    /// The entries one top-level value gives. A notification whose `messageId` was seen already
    /// saying the same is a redelivery; one that says something else under a seen `messageId`
    /// is weighed too, so that which file or line came first never decides what a customer is.
    private static func entries(
        of unit: JSONDocuments.Unit, shape: Shape, sales: SalesPolicy, messages: inout Set<UInt64>
    ) -> [(line: Int, entry: Entry)] {
        let value: JSONValue.Located
        switch unit {
        case .rejected(let line, let reason): return [(line, .rejected(reason))]
        case .element(let element): value = element
        }
        switch shape {
        case .responses:
            return PlaySubscriptionResponse.entries(value).map { entry in
                switch PlaySubscriptionResponse.read(entry, sales: sales) {
                case .success(let snapshot): (entry.body.line, .snapshot(snapshot))
                case .failure(let problem): (entry.body.line, .rejected(problem.reason))
                }
            }
        case .notifications:
            switch PlayNotice.notificationEntries(value) {
            case .failure(let problem): return [(value.line, .rejected(problem.reason))]
            case .success(let list):
                return list.map { entry in
                    switch PlayNotice.notification(entry, sales: sales) {
                    case .success(.notice(let notice, let messageID)):
                        if let messageID, !messages.insert(redelivery(messageID, notice)).inserted {
                            return (entry.line, .duplicate)
                        }
                        return (entry.line, .notice(notice))
                    case .success(.noted): return (entry.line, .noted)
                    case .failure(let problem): return (entry.line, .rejected(problem.reason))
                    }
                }
            }
        case .voided:
            switch PlayNotice.voidedEntries(value) {
            case .failure(let problem): return [(value.line, .rejected(problem.reason))]
            case .success(let list):
                return list.map { entry in
                    switch PlayNotice.voided(entry) {
                    case .success(.notice(let notice, _)): (entry.line, .notice(notice))
                    case .success(.noted): (entry.line, .noted)
                    case .failure(let problem): (entry.line, .rejected(problem.reason))
                    }
                }
            }
        }
    }
}
