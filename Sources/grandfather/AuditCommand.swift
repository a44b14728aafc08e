import ArgumentParser
import Foundation
import GrandfatherCore
import Logging

/// `grandfather audit`: classify every customer and write a run into the output folder.
struct AuditCommand: ParsableCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Classify every customer and write reports plus a SQLite snapshot.",
        discussion: """
            Inputs are recognised by content: CSV, a JSON array or JSON Lines, of customers or \
            transactions. Each run writes DIR/runs/<run-id>/ and then repoints DIR/latest to it, \
            holding DIR/.lock meanwhile; it is compared with the run DIR/latest pointed to.
            Exit codes: 0 success, 1 the run failed or another run holds the lock, 2 usage or policy \
            error, 3 rejected rows over max_rejected_fraction (the run is written; latest is not moved).
            """
    )

    @OptionGroup var policyOption: PolicyOption
    @OptionGroup var options: InputOptions

    @Option(name: .long, help: "The output folder.")
    var out: String = "reports"

    @Option(name: .long, help: "Compare with this snapshot (or run folder) instead of DIR/latest.")
    var previous: String?

    @Option(name: .long, help: "Run folders to keep, newest first; the one latest points to is always kept.")
    var keep: Int = RunWriter.defaultKeep

    @Option(name: .long, help: "Seconds to wait for another run holding DIR/.lock; 0 fails at once.")
    var wait: Double = 0

    @OptionGroup var testHooks: TestHookOptions

    var logFormat: LogFormat { options.logFormat }
    var verbose: Bool { options.verbose }

    func validate() throws {
        guard keep >= 1 else { throw ValidationError("--keep must be at least 1") }
        guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be a number of seconds, 0 or more") }
    }

    func run() throws {
        let log = EventLog.current
        let (policy, given) = try options.load(policy: policyOption.policy)
        let started = Date()
        let startedAt = RunID.iso8601(started)
        var fields: Logger.Metadata = ["inputs": .array(options.inputs.map { .string($0) }), "out": .string(out)]
        if let given { fields["as_of"] = .string(given.iso8601) }
        log.event("start", "audit of \(options.inputs.count) input(s) into \(out)", fields)
        if RunWriter.holdsRuns(in: out, marked: "compare.md") {
            throw GrandfatherError.usage("\(out) holds dry-run comparisons; audit runs go to a folder of their own")
        }
        let lock = try RunLock.acquire(directory: out, wait: wait, startedAt: startedAt)
        // Everything about DIR is checked before any input is read.
        try RunWriter.preflight(directory: out)
        let instant = given ?? InputOptions.now()
        let stops = testHooks.stops
        let before = try previousRun(log)

        let progress = Stderr.isTerminal && logFormat == .human ? TerminalProgress() : nil
        let audit = try Pipeline.audit(
            policy: policy, inputs: options.inputs, asOf: instant, progress: progress, previous: before, stops: stops,
            signatures: options.signatureChecks)
        KeptUntilExit.keep(audit)
        progress?.finish()
        log.stages(audit)
        if let warning = AppStoreSection.warning(audit.appStore) { log.warning(warning) }

        let writer = RunWriter(directory: out, keep: keep, failAt: testHooks.failAt, stops: stops)
        let record = RunRecord(runID: RunID.make(started, processID: getpid()), startedAt: startedAt)
        let outcome = try writer.write(audit, run: record, processID: getpid(), lock: lock)
        log.event(
            "stage",
            "reports \(twoDecimals(outcome.timings.reports)) s and snapshot \(twoDecimals(outcome.timings.snapshot)) s, written at once",
            [
                "stage": .string("write"), "reports_seconds": .stringConvertible(outcome.timings.reports),
                "snapshot_seconds": .stringConvertible(outcome.timings.snapshot),
            ])
        print(Summary.line(audit))
        print(
            TerminalText.safe(
                outcome.movedLatest ? "\(outcome.runFolder) → \(out)/latest" : "\(outcome.runFolder) (latest not moved)"
            ))
        if audit.exceedsRejectionThreshold {
            throw GrandfatherError.dataQuality(
                rejected: audit.rowsRejected, read: audit.rowsRead, maximumFraction: audit.policy.maxRejectedFraction,
                runFolder: outcome.runFolder)
        }
        log.result(audit, exitCode: 0, runFolder: outcome.runFolder)
    }

    /// The run to compare with: `--previous` (which must be readable), else the one
    /// `latest` points to (an unreadable one is a warning: tonight's audit still runs).
    private func previousRun(_ log: EventLog) throws(GrandfatherError) -> PreviousRun {
        if let previous {
            let path = Paths.isDirectory(previous) ? previous + "/snapshot.sqlite" : previous
            do {
                return .snapshot(try PreviousSnapshot(path: path))
            } catch {
                guard case .io(_, let message) = error else { throw error }
                throw .usage("--previous \(path): \(message)")
            }
        }
        let latest = out.hasSuffix("/") ? out + "latest" : out + "/latest"
        guard Paths.exists(latest) else { return .none(.firstRun) }
        let path = latest + "/snapshot.sqlite"
        do {
            return .snapshot(try PreviousSnapshot(path: path))
        } catch {
            log.warning("not comparing with the previous run: \(error.description)", ["path": .string(path)])
            return .none(.unreadable(path: path, reason: error.description))
        }
    }
}

/// What the command asks of paths before the library opens them.
enum Paths {
    /// Whether anything, a dangling link included, has this name.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

extension EventLog {
    /// The stages of stage 1–3 with their timings and counts.
    func stages(_ audit: Audit) {
        let timings = audit.timings
        event(
            "stage",
            "ingest \(twoDecimals(timings.ingest)) s, classify \(twoDecimals(timings.classify)) s; "
                + "\(TerminalText.counted(audit.rowsRead, "row", "rows")) read, \(audit.rowsRejected) rejected, "
                + TerminalText.counted(audit.customers.count, "customer", "customers"),
            [
                "stage": .string("ingest+classify"), "ingest_seconds": .stringConvertible(timings.ingest),
                "classify_seconds": .stringConvertible(timings.classify),
                "rows_read": .stringConvertible(audit.rowsRead),
                "rows_rejected": .stringConvertible(audit.rowsRejected),
                "customers": .stringConvertible(audit.customers.count),
            ])
        if audit.changes.wasCompared {
            event(
                "stage",
                "compare \(twoDecimals(timings.compare)) s; \(audit.changes.changes.count) customers changed since the previous run",
                [
                    "stage": .string("compare"), "compare_seconds": .stringConvertible(timings.compare),
                    "customers_changed": .stringConvertible(audit.changes.changes.count),
                ])
        }
    }

    /// The run's outcome, for collectors (a person reads the lines on stdout).
    func result(_ audit: Audit, exitCode: Int32, runFolder: String?) {
        guard format == .json else { return }
        var fields: Logger.Metadata = [
            "exit_code": .stringConvertible(Int(exitCode)), "customers": .stringConvertible(audit.customers.count),
            "rows_read": .stringConvertible(audit.rowsRead), "rows_rejected": .stringConvertible(audit.rowsRejected),
            "as_of": .string(audit.asOf.iso8601),
        ]
        for (customerClass, count) in audit.classCounts { fields[customerClass.rawValue] = .stringConvertible(count) }
        if let runFolder { fields["run_folder"] = .string(runFolder) }
        if audit.changes.wasCompared { fields["customers_changed"] = .stringConvertible(audit.changes.changes.count) }
        event("result", Summary.line(audit), fields)
    }
}

/// The short line printed on success.
enum Summary {
    static func line(_ audit: Audit) -> String {
        let classes = audit.classCounts.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
        return
            "\(TerminalText.counted(audit.customers.count, "customer", "customers")) (\(classes)); "
            + "\(TerminalText.counted(audit.rowsRead, "row", "rows")) read, \(audit.rowsRejected) rejected"
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
