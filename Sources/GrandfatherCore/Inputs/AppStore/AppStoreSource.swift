import Foundation
import GrandfatherEngine

extension InputFormat {
    /// One of the App Store's own shapes (signed transactions, notifications, receipts…).
    public static let appStore = InputFormat(rawValue: "app-store")
}

/// Every App Store export shape: the App Store Server API's responses, notifications V1
/// and V2, verifyReceipt bodies, signed or decoded.
///
/// Its files are read together, because identities link across them (an app transaction in
/// one file, its subscriptions in another): each file is read into App Store records, the
/// `AppStoreLinker` pass gives every record its customer, and then each file's linked records
/// flow into the record stream through its typed door, one sink per file and kind, so that
/// accounting and rejections work as for CSV.
enum AppStoreSource: InputSource {
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        switch AppStoreRecognizer.recognize(file.prefix) {
        case .appStore(let shape):
            return RecognizedInput(
                description: file.describe(format: .appStore, kind: .transactions), source: Self.self, detail: shape)
        case .notRecords(let what):
            throw .input(file: file.path, line: nil, message: what)
        case nil:
            return nil
        }
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        let policy = stream.settings.policy
        var checks = stream.settings.signatures
        if policy.apple.acceptsSelfSigned { checks.acceptSelfSigned = true }
        var summary = AppStoreSummary(checks: checks)
        var outcome = SourceOutcome()
        // Reports say how signatures were treated whenever that was asked about, files or not.
        let reportsChecks = stream.settings.signatures != SignatureChecks()
        guard !inputs.isEmpty else {
            if reportsChecks { outcome.findings.handOn(summary) }
            return outcome
        }
        let checker = try makeChecker(checks, now: stream.settings.now)
        let options = AppStoreReadOptions(
            trustDecoded: checks.trustDecoded, bundleID: policy.apple.bundleID, environment: policy.apple.environment,
            acceptSelfSigned: checks.verify && checks.acceptSelfSigned)

        var contents: [[AppStoreRecord]] = []
        var stored: [(size: Int64, digest: String)] = []
        for input in inputs {
            let path = input.description.path
            guard let shape = input.detail as? AppStoreShape else { throw .internal("\(path) has no App Store shape") }
            let (source, read) = try AppStoreFileReader.read(
                at: path, shape: shape, options: options, checker: checker)
            stored.append((Int64(source.storedSize), try InputFile.sha256(of: source)))
            for record in read.records { count(record, into: &summary) }
            summary.notificationTypes.merge(read.notificationTypes, uniquingKeysWith: +)
            summary.unknownNotificationTypes.merge(read.unknownNotificationTypes, uniquingKeysWith: +)
            contents.append(read.records)
            stream.meter?.advance(bytes: source.size, rows: read.records.count)
        }
        summary.files = inputs.count

        let (linked, unlinked) = AppStoreLinker(policy: policy.apple).link(contents)
        outcome.unlinkedCustomers = unlinked
        summary.unlinkedCustomers = unlinked.count
        for (index, input) in inputs.enumerated() {
            let rows = linked[index]
            summary.superseded += rows.superseded
            outcome.files.append(feed(rows, of: input.description, stored: stored[index], into: stream))
        }
        outcome.findings.handOn(summary)
        return outcome
    }

    private static func makeChecker(_ checks: SignatureChecks, now: Instant) throws(GrandfatherError) -> any JWSChecking
    {
        guard checks.verify else { return UncheckedSignatures() }
        var roots: [[UInt8]] = []
        for path in checks.trustedRoots { roots.append(contentsOf: try SignatureVerifier.loadRoots(path: path)) }
        return SignatureVerifier(
            additionalRoots: roots, validationTime: checks.verifyAt == .now ? .now(now) : .signedDate)
    }

    private static func count(_ record: AppStoreRecord, into summary: inout AppStoreSummary) {
        let trust: AppStoreTrust
        switch record {
        case .transaction(let value): trust = value.trust
        case .customer(let value): trust = value.trust
        case .renewal(let value): trust = value.trust
        case .noted, .rejected: return
        }
        summary.rowsByTrust[trust.rawValue, default: 0] += 1
    }

    /// Feeds one file's linked rows to the stream and accounts for them.
    private static func feed(
        _ rows: AppStoreLinker.FileRows, of input: InputDescription, stored: (size: Int64, digest: String),
        into stream: RecordStream
    ) -> (report: InputReport, rejections: [Rejection]) {
        // Each customer carries its own provenance (verified or not), so one sink takes both.
        var customers = stream.sink(file: input.path, kind: .customers, customerSource: .appStoreUnverified)
        var transactions = stream.sink(file: input.path, kind: .transactions, customerSource: .appStoreUnverified)
        for (line, customer) in rows.customers { customers.accept(customer: customer, line: line) }
        for transaction in rows.transactions {
            transactions.accept(transaction: transaction.values, texts: transaction.texts, line: transaction.line)
        }
        customers.flush()
        transactions.flush()
        for (line, reason) in rows.rejections {
            transactions.reject(line: line, column: nil, field: nil, reason: reason)
        }
        let rejections = (customers.rejections + transactions.rejections).sorted { $0.line < $1.line }
        let report = InputReport(
            path: input.path, format: .appStore,
            kind: rows.transactions.isEmpty && !rows.customers.isEmpty ? .customers : .transactions,
            sizeBytes: stored.size, sha256: stored.digest,
            rowsRead: customers.rowsRead + transactions.rowsRead + rows.acceptedWithoutRecord,
            rowsAccepted: customers.rowsAccepted + transactions.rowsAccepted + rows.acceptedWithoutRecord,
            rowsRejected: rejections.count,
            exactDuplicates: customers.exactDuplicates + transactions.exactDuplicates,
            sandboxRows: customers.sandboxRows + transactions.sandboxRows,
            superseded: rows.superseded)
        return (report, rejections)
    }
}

/// Reads signed content without checking it (`--no-verify`).
private struct UncheckedSignatures: JWSChecking {
    func check(_ jws: CompactJWS, signedAt: Instant?) -> SignatureOutcome {
        .unchecked
    }
}
