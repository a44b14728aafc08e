import GrandfatherEngine

/// Entry points for the libFuzzer targets in `Fuzz/` (`@_spi(Fuzzing) import GrandfatherCore`).
///
/// Each drives one input surface the way the audit does, so that a fuzzer reaches the same
/// code a real export reaches; the internals stay internal. Not for any other caller.
@_spi(Fuzzing) public enum Fuzzing {
    /// What reading one input gave: its accounting and its rejections, in line order.
    public struct IngestOutcome: Equatable, Sendable {
        public var report: InputReport
        public var rejections: [Rejection]
    }

    /// How many bytes the readers read at a time: where their chunk boundaries fall.
    public static var chunkSize: Int { ByteSource.chunkSize }

    /// Recognises the input at `path` (format and kind by content, SPEC §8.1), as
    /// `Pipeline.audit` does before reading anything.
    ///
    /// - Returns: the description, and the header for CSV.
    /// - Throws: `GrandfatherError` when the input cannot be recognised.
    public static func recognize(path: String) throws(GrandfatherError) -> (InputDescription, header: [String]?) {
        let input = try InputRecognizer.recognize(path: path)
        return (input.description, input.detail as? [String])
    }

    /// Reads a recognised input through the ingest and normalize stages into a fresh ledger,
    /// as `Pipeline.audit` does, with large-file splitting forced down to ranges of one byte
    /// so that small inputs are cut as large ones are.
    ///
    /// - Parameters:
    ///   - description: what `recognize(path:)` found.
    ///   - header: the CSV header `recognize(path:)` returned.
    ///   - policy: gives the default time zone and the ledger's rules.
    ///   - asOf: the audit's instant.
    ///   - parts: how many ranges to cut transactions into; 1 reads in one pass.
    /// - Returns: the input's accounting and rejections.
    /// - Throws: `GrandfatherError` when the input cannot be read.
    public static func ingest(
        _ description: InputDescription, header: [String]?, policy: Policy, asOf: Instant, parts: Int
    ) throws(GrandfatherError) -> IngestOutcome {
        let normalizer = RecordNormalizer(timestamps: TimestampParser(defaultZone: policy.defaultTimeZone))
        let ledger = ShardedLedger(rules: AuditRules(AuditSettings(policy: policy, asOf: asOf)))
        var (report, rejections, _) = try FileIngest.read(
            description, header: header, normalizer: normalizer, ledger: ledger,
            options: IngestOptions(parts: parts, minimumPartSize: 1))
        report.exactDuplicates += try ledger.settle()[description.path] ?? 0
        return IngestOutcome(report: report, rejections: rejections)
    }

    /// `AppVersion.compare(_:with:)`, the comparison `<` and `naive_version_trap` read.
    ///
    /// - Returns: `nil` when `text` is not a version, else whether it is lower than `other`
    ///   and whether plain string comparison says it is.
    public static func compare(_ text: String, with other: AppVersion) -> (lower: Bool, naivelyLower: Bool)? {
        AppVersion.compare(text, with: other)
    }
}

// MARK: - CSV

extension Fuzzing {
    /// Reads a recognised CSV input's records twice, once with the plain lines read by hand
    /// (`PlainLineReader`, as the audit reads) and once by libcsv alone.
    ///
    /// - Returns: `nil` when both deliver the same rows, rejections and line count; else the
    ///   first difference.
    public static func csvDifference(
        _ description: InputDescription, header: [String]
    ) throws(GrandfatherError) -> String? {
        let source = try InputFile.open(description.path)
        func read(plainLines: Bool) throws(GrandfatherError) -> [String] {
            var reader = CSVReader(header: header, kind: description.kind)
            reader.readsPlainLines = plainLines
            var sink = RecordingSink(fieldCount: description.kind.fieldNames.count)
            let summary = try Records.read(
                source, with: reader, range: source.dataStart..<source.size, isFirst: true, into: &sink)
            return sink.events + ["lines \(summary.lineBreaks)"]
        }
        return firstDifference(try read(plainLines: true), try read(plainLines: false), otherName: "libcsv alone")
    }
}

// MARK: - JSON Lines

extension Fuzzing {
    /// Reads a recognised JSON Lines input's records twice, once with the flat lines read by
    /// hand (`FlatObjectReader`, as the audit reads) and once by the scanner alone.
    ///
    /// - Returns: `nil` when both deliver the same rows, rejections and line count; else the
    ///   first difference.
    public static func jsonLinesDifference(_ description: InputDescription) throws(GrandfatherError) -> String? {
        let source = try InputFile.open(description.path)
        func read(flatLines: Bool) throws(GrandfatherError) -> [String] {
            var reader = JSONReader(kind: description.kind)
            reader.readsFlatLines = flatLines
            var sink = RecordingSink(fieldCount: description.kind.fieldNames.count)
            let summary = try Records.readLines(
                source, with: reader, range: source.dataStart..<source.size, into: &sink)
            return sink.events + ["lines \(summary.lineBreaks)"]
        }
        return firstDifference(try read(flatLines: true), try read(flatLines: false), otherName: "the scanner alone")
    }
}

/// Every row and rejection a reader delivers, in order, as text to compare.
private struct RecordingSink: RowSink {
    let fieldCount: Int
    var events: [String] = []
    mutating func accept(_ row: RawRow) {
        let fields = (0..<fieldCount).map { field in
            row.has(field) ? "\(row.column(of: field) ?? 0):\(Array(row.bytes(field)))" : "-"
        }
        events.append("row \(row.line) \(fields.joined(separator: " "))")
    }
    mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
        events.append("reject \(line) \(column ?? 0) \(field ?? "-") \(reason)")
    }
}

/// `nil` when two reads delivered the same events, else where they first differ.
private func firstDifference(_ both: [String], _ other: [String], otherName: String) -> String? {
    guard both != other else { return nil }
    let index =
        zip(both, other).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(both.count, other.count)
    func event(_ events: [String]) -> String { index < events.count ? events[index] : "(none)" }
    return "event \(index): \(event(both)); \(otherName): \(event(other))"
}

// MARK: - App Store

extension Fuzzing {
    /// One row an App Store file gave: what the fuzz target checks, and the whole record
    /// for comparing two reads.
    public struct AppStoreRow: Equatable, Sendable {
        /// The 1-based line the row starts on.
        public var line: Int { record.line }
        /// A rejected row's reason, else `nil`.
        public var rejection: String? {
            if case .rejected(_, let reason) = record { return reason }
            return nil
        }
        /// How far the row's content is trusted (`verified`, `unchecked`…); `nil` for noted
        /// and rejected rows.
        public var trust: String? {
            switch record {
            case .transaction(let value): return value.trust.rawValue
            case .customer(let value): return value.trust.rawValue
            case .renewal(let value): return value.trust.rawValue
            case .noted, .rejected: return nil
            }
        }
        let record: AppStoreRecord
    }

    /// What reading one App Store file with one signature checker gave.
    public struct AppStoreRead: Equatable, Sendable {
        /// Every row, in file order.
        public var rows: [AppStoreRow]
        /// The notification types seen, and the unknown ones apart.
        public var notificationTypes: [String: Int]
        public var unknownNotificationTypes: [String: Int]

        init(_ contents: AppStoreFileContents) {
            rows = contents.records.map(AppStoreRow.init(record:))
            notificationTypes = contents.notificationTypes
            unknownNotificationTypes = contents.unknownNotificationTypes
        }
    }

    /// What `readAppStore(_:with:)` gave for an App Store file.
    public struct AppStoreOutcome: Equatable, Sendable {
        /// The shape recognised (`jws-lines`, `notification-bodies`…).
        public var shape: String
        /// Read with every signature taken unchecked, as `--no-verify` does.
        public var unchecked: AppStoreRead
        /// Read with a `SignatureVerifier` trusting Apple Root CA - G3 alone, at each
        /// payload's signedDate.
        public var verified: AppStoreRead
    }

    /// What `readAppStore(_:with:)` checks signatures with, besides not checking them: a
    /// `SignatureVerifier` trusting Apple Root CA - G3 alone, at each payload's signedDate.
    ///
    /// Make one per input and read with it twice: the second read is answered from the
    /// verifier's chain cache, as a run's later files are. (One for the whole process would
    /// hold the root's key in a global, which LeakSanitizer reports as a leak.)
    public struct AppStoreCheckers: Sendable {
        let verifier = SignatureVerifier(additionalRoots: [], validationTime: .signedDate)

        public init() {}
    }

    /// Recognises `file` as `AppStoreRecognizer` recognises a file's first bytes and, when
    /// they are App Store records, reads them whole with `--trust-decoded`, twice: with every
    /// signature unchecked, and with the verifier (so that chain and signature checks see
    /// malformed `x5c` and DER too).
    ///
    /// - Returns: `nil` when the bytes are not App Store records (or are App Store data that
    ///   holds none), else both reads.
    public static func readAppStore(_ file: [UInt8], with checkers: AppStoreCheckers) -> AppStoreOutcome? {
        guard case .appStore(let shape) = AppStoreRecognizer.recognize(file) else { return nil }
        let options = AppStoreReadOptions(trustDecoded: true)
        return AppStoreOutcome(
            shape: shape.rawValue,
            unchecked: AppStoreRead(
                AppStoreFileReader.read(file, shape: shape, options: options, checker: UncheckedFuzzSignatures())),
            verified: AppStoreRead(
                AppStoreFileReader.read(file, shape: shape, options: options, checker: checkers.verifier)))
    }
}

/// Takes every signature unchecked, as `--no-verify` does.
private struct UncheckedFuzzSignatures: JWSChecking {
    func check(_ jws: CompactJWS, signedAt: Instant?) -> SignatureOutcome {
        .unchecked
    }
}

// MARK: - RevenueCat

extension Fuzzing {
    /// What auditing one RevenueCat file gave: its accounting and rejections, the customers'
    /// verdicts in output order, and the merged ids.
    public struct RevenueCatOutcome: Equatable, Sendable {
        public var report: InputReport
        public var rejections: [Rejection]
        /// `id class flags`, one per customer, in output order.
        public var verdicts: [String]
        /// `id>customer`, one per merged id.
        public var merged: [String]
    }

    /// Audits the file at `path` alone, as `Pipeline.audit` does, when it is one of
    /// RevenueCat's shapes (an export, a customer list, subscriber responses, webhook events).
    ///
    /// - Returns: `nil` when the file is not RevenueCat's, or cannot be read as a whole (a
    ///   run error, which the command reports in one line).
    public static func auditRevenueCat(path: String, policy: Policy, asOf: Instant) -> RevenueCatOutcome? {
        let revenueCat: Set<InputFormat> = [
            .revenueCatExport, .revenueCatCustomerList, .revenueCatSubscribers, .revenueCatWebhooks,
        ]
        guard let input = try? InputRecognizer.recognize(path: path), revenueCat.contains(input.description.format)
        else { return nil }
        guard let audit = try? Pipeline.audit(AuditSettings(policy: policy, asOf: asOf), inputs: [path]),
            let report = audit.inputs.first
        else { return nil }
        return RevenueCatOutcome(
            report: report, rejections: audit.rejections,
            verdicts: audit.customers.map { result in
                "\(result.customer.id) \(result.customerClass.rawValue) \(result.flags.map(\.code))"
            },
            merged: audit.mergedIDs.map { "\($0.id)>\($0.customerID)" })
    }

    /// What auditing one Google Play subscription file gave: its accounting and rejections, and
    /// the customers' verdicts in output order (`id class flags`).
    public struct GooglePlayOutcome: Equatable, Sendable {
        public var report: InputReport
        public var rejections: [Rejection]
        public var verdicts: [String]
    }

    /// Audits the file at `path` when it is one of Google Play's subscription shapes: stored
    /// responses alone, notifications or voided purchases after the stored responses at
    /// `responses`, so that their tokens can match.
    ///
    /// - Returns: `nil` when the file is not one of them, or cannot be read as a whole.
    public static func auditGooglePlay(path: String, responses: String, policy: Policy, asOf: Instant)
        -> GooglePlayOutcome?
    {
        let play: Set<InputFormat> = [.playSubscriptions, .playNotifications, .playVoided]
        guard let input = try? InputRecognizer.recognize(path: path), play.contains(input.description.format)
        else { return nil }
        let inputs = input.description.format == .playSubscriptions ? [path] : [responses, path]
        guard let audit = try? Pipeline.audit(AuditSettings(policy: policy, asOf: asOf), inputs: inputs),
            let report = audit.inputs.last
        else { return nil }
        return GooglePlayOutcome(
            report: report, rejections: audit.rejections.filter { $0.file == path },
            verdicts: audit.customers.map { result in
                "\(result.customer.id) \(result.customerClass.rawValue) \(result.flags.map(\.code))"
            })
    }

    /// What auditing one sales report gave: its accounting and rejections, and what its rows
    /// counted (rows counted as copies, rows not counted).
    public struct SalesOutcome: Equatable, Sendable {
        public var report: InputReport
        public var rejections: [Rejection]
        public var countedRows: Int
        public var notCountedRows: Int
        /// Copies in every cell, `store app month country period paid free returned`, sorted.
        public var cells: [String]
    }

    /// Audits the file at `path` alone, as `Pipeline.audit` does, when it is a store's sales report.
    ///
    /// - Returns: `nil` when the file is not a sales report, or cannot be read as a whole.
    public static func auditSales(path: String, policy: Policy, asOf: Instant) -> SalesOutcome? {
        guard let input = try? InputRecognizer.recognize(path: path), input.description.kind == .sales,
            let audit = try? Pipeline.audit(AuditSettings(policy: policy, asOf: asOf), inputs: [path]),
            let report = audit.inputs.first
        else { return nil }
        let file = audit.population.files[path] ?? SalesPopulation.FileCount()
        let cells = audit.population.units.map { key, units in
            "\(key.store.rawValue) \(key.app) \(key.month) \(key.country) \(key.period.rawValue) "
                + "\(units.paid) \(units.free) \(units.returned)"
        }
        return SalesOutcome(
            report: report, rejections: audit.rejections, countedRows: file.countedRows,
            notCountedRows: file.notCounted.values.reduce(0, +), cells: cells.sorted())
    }
}
