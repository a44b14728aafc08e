import ArgumentParser
import Foundation
import GrandfatherCore
import GrandfatherEngine
import Logging
import Synchronization

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

    @Option(
        name: .long,
        help:
            "Make the run from a warehouse's results: a normalize folder holding gf_customers.csv, gf_customer_flags.csv and gf_entitlements.csv (no inputs; needs --as-of)."
    )
    var results: String?

    @OptionGroup var testHooks: TestHookOptions

    var logFormat: LogFormat { options.logFormat }
    var verbose: Bool { options.verbose }

    func validate() throws {
        guard keep >= 1 else { throw ValidationError("--keep must be at least 1") }
        guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be a number of seconds, 0 or more") }
        if results != nil {
            guard options.inputs.isEmpty else { throw ValidationError("--results reads its folder: give no inputs") }
            guard options.asOf != nil else {
                throw ValidationError("--results needs the --as-of the folder was normalized at")
            }
        }
    }

    func run() throws {
        let log = EventLog.current
        var options = self.options
        if let results { options.inputs = try WarehouseResults.inputs(in: results) }
        let (policy, given) = try options.load(policy: policyOption.policy)
        var fields: Logger.Metadata = ["inputs": .array(options.inputs.map { .string($0) }), "out": .string(out)]
        if let given { fields["as_of"] = .string(given.iso8601) }
        log.event("start", "audit of \(options.inputs.count) input(s) into \(out)", fields)
        let progress = Stderr.isTerminal && logFormat == .human ? TerminalProgress() : nil
        var run = AuditRun(directory: out, clock: InputOptions.clock)
        run.keep = keep
        run.wait = wait
        run.previous = previous
        run.asOf = given
        run.signatures = options.signatureChecks
        run.mapping = try options.mapping()
        run.progress = progress
        run.warehouseResults = results
        run.events = RunEvents(log: log, progress: progress)
        testHooks.apply(to: &run)
        let (audit, outcome) = try run.audit(policy, inputs: options.inputs)
        KeptUntilExit.keep(audit)
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
}

/// What a run tells the log while it goes on: a previous run it cannot read (a warning: the
/// audit still runs), and, once the inputs are audited, the stages' timings and counts.
struct RunEvents: AuditRunEvents {
    let log: EventLog
    let progress: TerminalProgress?

    func previousRunUnreadable(path: String, reason: String) {
        log.warning("not comparing with the previous run: \(reason)", ["path": .string(path)])
    }

    func audited(_ audit: Audit) {
        progress?.finish()
        log.stages(audit)
        if let warning = AppStoreSection.warning(audit.appStore) { log.warning(warning) }
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

/// A one-line progress bar on a terminal (rows, MB/s, ETA); never used when stderr is a file
/// or a pipe, so cron logs stay clean. The ingest stage's threads report at once: the bar is
/// drawn with `lastDrawn` locked.
final class TerminalProgress: ProgressSink, Sendable {
    private struct Drawn {
        var at = Date.distantPast
        var any = false
    }

    private let start = Date()
    private let lastDrawn = Mutex(Drawn())

    func read(bytes: Int64, of total: Int64, rows: Int) {
        lastDrawn.withLock { drawn in
            let now = Date()
            guard now.timeIntervalSince(drawn.at) >= 0.1 || bytes >= total else { return }
            drawn.at = now
            drawn.any = true
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
    }

    /// Clears the bar before anything else is printed.
    func finish() {
        lastDrawn.withLock { drawn in
            if drawn.any { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        }
    }
}
