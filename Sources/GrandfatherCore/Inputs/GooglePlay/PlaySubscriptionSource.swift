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

    /// A file's entries, by line, with its size and digest.
    private struct FileRead {
        var input: RecognizedInput
        var shape: Shape
        var source: ByteSource
        var entries: [(line: Int, entry: Entry)] = []
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        guard !inputs.isEmpty else { return outcome }
        var files: [FileRead] = []
        var messages: Set<Redelivery> = []
        for input in inputs {
            guard let shape = input.detail as? Shape else { continue }
            let path = input.description.path
            let (source, units) = try JSONDocuments.read(at: path, what: "Google Play \(shape.format)")
            var file = FileRead(input: input, shape: shape, source: source)
            for unit in units {
                switch unit {
                case .rejected(let line, let reason):
                    file.entries.append((line, .rejected(reason)))
                case .element(let value):
                    file.entries += entries(
                        of: value, shape: shape, sales: stream.settings.policy.sales, messages: &messages)
                }
            }
            stream.meter?.advance(bytes: source.size, rows: file.entries.count)
            files.append(file)
        }

        var snapshots: [(place: PlaySubscriptionRules.Place, snapshot: PlaySubscriptionRules.Snapshot)] = []
        var notices: [(place: PlaySubscriptionRules.Place, notice: PlaySubscriptionRules.Notice)] = []
        for (index, file) in files.enumerated() {
            for (order, (_, entry)) in file.entries.enumerated() {
                let place = PlaySubscriptionRules.Place(file: index, record: order)
                switch entry {
                case .snapshot(var snapshot):
                    snapshot.customerID = snapshot.customerID.map(stream.normalizer.customerID)
                    snapshots.append((place, snapshot))
                case .notice(let notice): notices.append((place, notice))
                case .noted, .duplicate, .rejected: break
                }
            }
        }
        let weighed = PlaySubscriptionRules.transactions(
            snapshots: snapshots, notices: notices,
            productTypes: stream.settings.policy.products.compactMapValues(\.type))
        outcome.unlinkedCustomers = weighed.unlinkedCustomers
        var transactions = weighed.transactions[...]

        for (index, file) in files.enumerated() {
            let path = file.input.description.path
            // Only responses give transactions; the customer source is never asked for.
            var sink =
                file.shape == .responses
                ? stream.sink(file: path, kind: .transactions, customerSource: .playSubscription) : nil
            var rejections: [Rejection] = []
            var report = InputReport(
                path: path, format: file.shape.format, kind: file.input.description.kind,
                sizeBytes: Int64(file.source.storedSize), sha256: try engineWork { try file.source.sha256() },
                rowsRead: file.entries.count, rowsAccepted: 0, rowsRejected: 0, exactDuplicates: 0, sandboxRows: 0)
            for (order, (line, entry)) in file.entries.enumerated() {
                let place = PlaySubscriptionRules.Place(file: index, record: order)
                var rejection: Rejection?
                switch (entry, weighed.uses[place]) {
                case (.rejected(let reason), _), (_, .rejected(let reason)?):
                    rejection = Rejection(file: path, line: line, reason: reason)
                case (.duplicate, _):
                    report.exactDuplicates += 1
                case (_, .superseded?):
                    report.superseded += 1
                default:
                    break
                }
                let before = sink?.rejections.count ?? 0
                while let next = transactions.first, next.place == place {
                    sink?.accept(transaction: next.record, texts: next.texts, line: line)
                    transactions.removeFirst()
                }
                // A row is rejected once, for the first reason found (a response's second line
                // item may fail a check its first passed). Rows may share a line: each counts.
                if rejection == nil, let sink, sink.rejections.count > before { rejection = sink.rejections[before] }
                if let rejection { rejections.append(rejection) }
            }
            sink?.flush()
            report.rowsRejected = rejections.count
            report.rowsAccepted = report.rowsRead - report.rowsRejected
            report.sandboxRows = sink?.sandboxRows ?? 0
            outcome.files.append((report, rejections))
        }
        return outcome
    }

    /// A notification as Pub/Sub may deliver it again: its `messageId` and what it says.
    private struct Redelivery: Hashable {
        var messageID: String
        var notice: PlaySubscriptionRules.Notice
    }

    /// The entries one top-level value gives. A notification whose `messageId` was seen already
    /// saying the same is a redelivery; one that says something else under a seen `messageId`
    /// is weighed too, so that which file or line came first never decides what a customer is.
    private static func entries(
        of value: JSONValue.Located, shape: Shape, sales: SalesPolicy, messages: inout Set<Redelivery>
    ) -> [(line: Int, entry: Entry)] {
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
                        if let messageID, !messages.insert(Redelivery(messageID: messageID, notice: notice)).inserted {
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
