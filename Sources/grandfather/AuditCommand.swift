import ArgumentParser
import Foundation
import GrandfatherCore
import Logging

/// `grandfather audit`: classify every customer and write a run into the output folder.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Classify every customer and write reports plus a SQLite snapshot.",
        discussion: """
            Inputs are recognised by content: CSV, a JSON array or JSON Lines, of customers or \
            transactions. Each run writes DIR/runs/<run-id>/ and then repoints DIR/latest to it.
            Exit codes: 0 success, 1 the run failed, 2 usage or policy error, \
            3 rejected rows over max_rejected_fraction (the run is written; latest is not moved).
            """
    )

    @Option(name: .long, help: "The policy file (JSON).")
    var policy: String

    @Option(name: .customLong("as-of"), help: "The instant to audit at (ISO-8601 or epoch ms). Default: now.")
    var asOf: String?

    @Option(name: .long, help: "The output folder.")
    var out: String = "reports"

    @ArgumentParser.Flag(name: .long, help: "Print stage timings and counts to stderr.")
    var verbose = false

    @Argument(help: "Customer and transaction files (CSV, JSON array, JSON Lines).")
    var inputs: [String] = []

    func run() throws {
        guard !inputs.isEmpty else { throw GrandfatherError.usage("no input files given") }
        var logger = Logger(label: "grandfather")
        logger.logLevel = verbose ? .info : .warning
        let policy = try PolicyLoader.load(path: policy)
        let instant = try resolveAsOf(policy: policy)
        let started = Date()
        let progress: ProgressSink? = Stderr.isTerminal ? TerminalProgress() : nil
        let audit = try Pipeline.audit(policy: policy, inputs: inputs, asOf: instant, progress: progress)
        logger.info(
            "ingest \(format(audit.timings.ingest)) s, classify \(format(audit.timings.classify)) s; \(audit.rowsRead) rows read, \(audit.rowsRejected) rejected, \(audit.customers.count) customers"
        )
        let failAt = ProcessInfo.processInfo.environment["GRANDFATHER_TEST_FAIL_AT"].flatMap(WritePoint.init(rawValue:))
        let writer = RunWriter(directory: out, failAt: failAt)
        let record = RunRecord(runID: RunID.make(started, processID: getpid()), startedAt: RunID.iso8601(started))
        let outcome = try writer.write(audit, run: record, processID: getpid())
        print(Summary.line(audit))
        print(outcome.movedLatest ? "\(outcome.runFolder) → \(out)/latest" : "\(outcome.runFolder) (latest not moved)")
        if audit.exceedsRejectionThreshold {
            throw GrandfatherError.dataQuality(
                rejected: audit.rowsRejected, read: audit.rowsRead, maximumFraction: audit.policy.maxRejectedFraction,
                runFolder: outcome.runFolder)
        }
    }

    private func resolveAsOf(policy: Policy) throws(GrandfatherError) -> Instant {
        guard let asOf else {
            // Now, to the second: a nightly report reads better without microseconds.
            return Instant(seconds: Int64(Date().timeIntervalSince1970.rounded(.down)))
        }
        switch TimestampParser(defaultZone: policy.defaultTimeZone).parse(asOf) {
        case .success(let instant): return instant
        case .failure(let problem): throw .usage("--as-of: " + problem.reason(for: asOf))
        }
    }

    private func format(_ seconds: Double) -> String { String(format: "%.2f", seconds) }
}

/// The short line printed on success.
enum Summary {
    static func line(_ audit: Audit) -> String {
        let classes = audit.classCounts.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
        return
            "\(audit.customers.count) customers (\(classes)); \(audit.rowsRead) rows read, \(audit.rowsRejected) rejected"
    }
}

/// Run folder names: the UTC start time to the millisecond, then the process id.
enum RunID {
    static func make(_ date: Date, processID: Int32) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return formatter.string(from: date) + "-\(processID)"
    }

    static func iso8601(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
        return Instant(microseconds: micros / 1000 * 1000).iso8601
    }
}

/// A one-line progress display on a terminal; never used when stderr is a file or pipe.
struct TerminalProgress: ProgressSink {
    func fileFinished(path: String, bytes: Int64) {
        FileHandle.standardError.write(Data("\u{1B}[2K\rread \(path) (\(bytes / 1_000_000) MB)\n".utf8))
    }
}
