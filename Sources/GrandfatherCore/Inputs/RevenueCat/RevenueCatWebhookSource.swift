/// Files of RevenueCat webhook events (one body, a JSON array of them, or JSON Lines): a
/// source of identities, not of records. Registered first (`InputSources`), so that its
/// merges are known before any record is read and every record is filed under its merged
/// customer.
///
/// The events of every file of the run are applied together, in the order RevenueCat sent
/// them: `event_timestamp_ms`, then the order the files were given and the lines; an event
/// without a timestamp comes before those with one.
enum RevenueCatWebhookSource: InputSource {
    /// `RevenueCatSource` recognises these files, in the one look at a JSON file's first
    /// object that tells its shapes apart.
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        nil
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        var events: [(order: EventOrder, merges: [WebhookEvent.Merge])] = []
        for (file, input) in inputs.enumerated() {
            let path = input.description.path
            var report = InputReport(
                path: path, format: .revenueCatWebhooks, kind: .customers, sizeBytes: 0, sha256: "", rowsRead: 0,
                rowsAccepted: 0, rowsRejected: 0, exactDuplicates: 0, sandboxRows: 0)
            var rejections: [Rejection] = []
            // Streamed: only each event's merges and place are kept.
            let source = try JSONDocuments.stream(
                at: path, what: "webhook events",
                map: { unit -> Result<Located, Rejected> in
                    switch unit {
                    case .element(let body):
                        return WebhookEvent.read(body).map { Located(event: $0, line: body.line) }.mapError {
                            Rejected(line: $0.line, reason: $0.reason)
                        }
                    case .rejected(let line, let reason):
                        return .failure(Rejected(line: line, reason: reason))
                    }
                }
            ) { read in
                report.rowsRead += 1
                switch read {
                case .success(let read):
                    report.rowsAccepted += 1
                    events.append(
                        (EventOrder(timestamp: read.event.timestamp, file: file, line: read.line), read.event.merges))
                case .failure(let rejected):
                    rejections.append(
                        Rejection(file: path, line: rejected.line, column: nil, field: nil, reason: rejected.reason))
                }
            }
            report.sizeBytes = Int64(source.storedSize)
            report.sha256 = try InputFile.sha256(of: source)
            report.rowsRejected = rejections.count
            stream.meter?.advance(bytes: source.size, rows: report.rowsRead)
            outcome.files.append((report, rejections))
        }
        events.sort { $0.order < $1.order }
        for (_, merges) in events {
            for merge in merges { outcome.identities.merge(merge.id, onto: merge.onto, how: merge.how) }
        }
        return outcome
    }

    /// An event read, and the line it starts on.
    private struct Located: Sendable {
        var event: WebhookEvent.Read
        var line: Int
    }

    /// An event that could not be read, and why.
    private struct Rejected: Error {
        var line: Int
        var reason: String
    }

    /// Where an event stands in the order its merges are applied in.
    private struct EventOrder: Comparable {
        var timestamp: Int64?
        var file: Int
        var line: Int

        static func < (lhs: EventOrder, rhs: EventOrder) -> Bool {
            let (left, right) = (lhs.timestamp ?? .min, rhs.timestamp ?? .min)
            if left != right { return left < right }
            return (lhs.file, lhs.line) < (rhs.file, rhs.line)
        }
    }
}
