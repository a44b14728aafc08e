import Foundation

/// Reads every App Store input of a run together (identities link across files), then feeds
/// the linked rows through the same normalizer and ledger as canonical rows, one
/// `IngestSink` per file and kind, so that accounting and rejections work as for CSV.
enum AppStoreIngest {
    /// What the App Store inputs gave.
    struct Outcome {
        /// One report per file, in the order given.
        var reports: [InputReport] = []
        var rejections: [Rejection] = []
        var summary: AppStoreSummary
        /// Ids of customers made for unlinked subscriptions (flagged).
        var unlinkedCustomers: Set<String> = []
    }

    /// The largest App Store file read: these are read whole.
    static let maximumFileSize = 1 << 30

    static func read(
        _ inputs: [InputDescription], policy: Policy, checks: SignatureChecks, normalizer: RecordNormalizer,
        ledger: ShardedLedger, now: Instant, meter: ProgressMeter?
    ) throws(GrandfatherError) -> Outcome {
        var checks = checks
        if policy.apple.acceptsSelfSigned { checks.acceptSelfSigned = true }
        var outcome = Outcome(summary: AppStoreSummary(checks: checks))
        guard !inputs.isEmpty else { return outcome }
        let checker = try makeChecker(checks, now: now)
        let options = AppStoreReadOptions(
            trustDecoded: checks.trustDecoded, bundleID: policy.apple.bundleID, environment: policy.apple.environment,
            acceptSelfSigned: checks.verify && checks.acceptSelfSigned)

        var contents: [[AppStoreRecord]] = []
        var digests: [String] = []
        for input in inputs {
            guard let shape = input.appStoreShape else { throw .internal("\(input.path) has no App Store shape") }
            let source = try ByteSource(path: input.path)
            guard source.size <= maximumFileSize else {
                throw .input(
                    file: input.path, line: nil,
                    message:
                        "App Store file of \(source.size) bytes is over the \(maximumFileSize >> 20) MiB read whole")
            }
            let bytes = try source.readAll()
            digests.append(try source.sha256())
            let read = AppStoreFileReader.read(bytes, shape: shape, options: options, checker: checker)
            for record in read.records { count(record, into: &outcome.summary) }
            outcome.summary.notificationTypes.merge(read.notificationTypes, uniquingKeysWith: +)
            outcome.summary.unknownNotificationTypes.merge(read.unknownNotificationTypes, uniquingKeysWith: +)
            contents.append(read.records)
            meter?.advance(bytes: source.size, rows: read.records.count)
        }
        outcome.summary.files = inputs.count

        let (linked, unlinked) = AppStoreLinker(policy: policy.apple).link(contents)
        outcome.unlinkedCustomers = unlinked
        outcome.summary.unlinkedCustomers = unlinked.count
        for (index, input) in inputs.enumerated() {
            let rows = linked[index]
            outcome.summary.superseded += rows.superseded
            let (report, rejections) = feed(
                rows, of: input, digest: digests[index], normalizer: normalizer, ledger: ledger)
            outcome.reports.append(report)
            outcome.rejections.append(contentsOf: rejections)
        }
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

    /// Feeds one file's linked rows to the ledger and accounts for them.
    private static func feed(
        _ rows: AppStoreLinker.FileRows, of input: InputDescription, digest: String, normalizer: RecordNormalizer,
        ledger: ShardedLedger
    ) -> (InputReport, [Rejection]) {
        var customers = IngestSink(file: input.path, kind: .customers, normalizer: normalizer, ledger: ledger)
        var transactions = IngestSink(file: input.path, kind: .transactions, normalizer: normalizer, ledger: ledger)
        var writer = CanonicalRowWriter()
        for (line, fields) in rows.customers {
            writer.emit(fields, fieldCount: CustomerField.allCases.count, line: line, into: &customers)
        }
        for (line, fields) in rows.transactions {
            writer.emit(fields, fieldCount: TransactionField.allCases.count, line: line, into: &transactions)
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
            sizeBytes: input.size, sha256: digest,
            rowsRead: customers.rowsRead + transactions.rowsRead + rows.acceptedWithoutRecord,
            rowsAccepted: customers.rowsAccepted + transactions.rowsAccepted + rows.acceptedWithoutRecord,
            rowsRejected: rejections.count,
            exactDuplicates: customers.exactDuplicates + transactions.exactDuplicates,
            sandboxRows: customers.sandboxRows + transactions.sandboxRows)
        return (report, rejections)
    }
}

/// Reads signed content without checking it (`--no-verify`).
private struct UncheckedSignatures: JWSChecking {
    func check(_ jws: CompactJWS, signedAt: Instant?) -> SignatureOutcome {
        .unchecked
    }
}

/// Lays canonical field text out as a `RawRow`, so linked App Store records pass through
/// the normalizer exactly as CSV rows do.
private struct CanonicalRowWriter {
    private var buffer: [UInt8] = []
    private var rows: [Int: RawRow] = [:]

    mutating func emit<Field: RawRepresentable & Hashable>(
        _ fields: [Field: String], fieldCount: Int, line: Int, into sink: inout IngestSink
    ) where Field.RawValue == Int {
        let row = rows[fieldCount] ?? RawRow(fieldCount: fieldCount)
        rows[fieldCount] = row
        buffer.removeAll(keepingCapacity: true)
        var spans: [(field: Int, start: Int, count: Int)] = []
        for (field, text) in fields {
            spans.append((field.rawValue, buffer.count, text.utf8.count))
            buffer.append(contentsOf: text.utf8)
        }
        var current = row
        buffer.withUnsafeBytes { raw in
            current.reset(line: line, base: raw.baseAddress)
            for span in spans { current.set(field: span.field, column: 0, start: span.start, count: span.count) }
            sink.accept(current)
        }
    }
}
