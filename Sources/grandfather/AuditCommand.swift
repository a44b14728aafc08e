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
        let progress = Stderr.isTerminal ? TerminalProgress() : nil
        let audit = try Pipeline.audit(policy: policy, inputs: inputs, asOf: instant, progress: progress)
        progress?.finish()
        logger.info(
            "ingest \(format(audit.timings.ingest)) s, classify \(format(audit.timings.classify)) s; \(audit.rowsRead) rows read, \(audit.rowsRejected) rejected, \(audit.customers.count) customers"
        )
        let failAt = ProcessInfo.processInfo.environment["GRANDFATHER_TEST_FAIL_AT"].flatMap(WritePoint.init(rawValue:))
        let writer = RunWriter(directory: out, failAt: failAt)
        let record = RunRecord(runID: RunID.make(started, processID: getpid()), startedAt: RunID.iso8601(started))
        let outcome = try writer.write(audit, run: record, processID: getpid())
        logger.info(
            "reports \(format(outcome.timings.reports)) s and snapshot \(format(outcome.timings.snapshot)) s, written at once; \(audit.rejections.count) rejections"
        )
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

/// A one-line progress bar on a terminal (rows, MB/s, ETA); never used when stderr is a file
/// or a pipe, so cron logs stay clean.
final class TerminalProgress: ProgressSink, @unchecked Sendable {
    private let lock = NSLock()
    private let start = Date()
    /// Touched only with `lock` held.
    private var lastDrawn = Date.distantPast
    private var drawn = false

    func read(bytes: Int64, of total: Int64, rows: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.1 || bytes >= total else { return }
        lastDrawn = now
        drawn = true
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let fraction = total > 0 ? min(1, Double(bytes) / Double(total)) : 1
        let rate = Double(bytes) / 1_000_000 / elapsed
        let remaining = rate > 0 ? Double(total - bytes) / 1_000_000 / rate : 0
        let filled = Int(fraction * 24)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled)
        let line = String(
            format: "\r\u{1B}[2K[%@] %3.0f%%  %.0f of %.0f MB  %.0f MB/s  ETA %.0fs  %d rows", bar, fraction * 100,
            Double(bytes) / 1_000_000, Double(total) / 1_000_000, rate, remaining, rows)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Clears the bar before anything else is printed.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
