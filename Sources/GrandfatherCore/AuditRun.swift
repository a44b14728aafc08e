import Foundation
import GrandfatherEngine

/// One run into an output folder `DIR` (SPEC §6), as `grandfather audit` and `grandfather
/// compare` make it: take `DIR/.lock`, check the folder, find the previous run, audit the
/// inputs, write the run into its own folder and switch `DIR/latest` to it.
///
/// The command gives it a clock; the run reads it for its id, and for the as-of instant when
/// none is given, once it holds the lock (a run queued by `wait` audits at the moment it ran).
public struct AuditRun: Sendable {
    /// The output folder `DIR`.
    public var directory: String
    /// Run folders to keep, newest first; the one `latest` points to is always kept.
    public var keep = RunWriter.defaultKeep
    /// Seconds to wait for another run holding the lock; 0 fails at once.
    public var wait = 0.0
    /// A snapshot (or run folder) to compare with instead of the one `latest` points to.
    public var previous: String?
    /// The instant to audit at; `nil` audits at the present, to the second.
    public var asOf: Instant?
    /// How App Store signatures are treated.
    public var signatures = SignatureChecks()
    /// How a team's own export maps onto SPEC §2 (`--map`).
    public var mapping: Mapping?
    /// Told how much input was read.
    public var progress: ProgressSink?
    /// Told what happens while the run goes on.
    public var events: (any AuditRunEvents)?
    /// A `normalize` folder holding a warehouse's result tables: the run is made from them
    /// (`WarehouseResults`), and the inputs are the folder's.
    public var warehouseResults: String?
    /// Where a test makes the run fail, die or wait.
    @_spi(TestHooks) public var testHooks = TestHooks()
    /// Reads the present.
    private let clock: @Sendable () -> Instant

    /// - Parameter clock: the present, read for the run's id and start, and for the as-of
    ///   instant when none is given; the command passes the system's clock.
    public init(directory: String, clock: @escaping @Sendable () -> Instant) {
        self.directory = directory
        self.clock = clock
    }

    /// Audits `inputs` under `policy` and writes the run (its reports and snapshot).
    ///
    /// The run is written even when its rejected rows exceed `max_rejected_fraction`; then
    /// `latest` is not moved, and the caller decides what that means (the command exits 3).
    /// - Throws: `GrandfatherError` when the lock is held, the folder cannot be written, the
    ///   previous run named by `previous` cannot be read, or an input cannot be read.
    public func audit(_ policy: Policy, inputs: [String]) throws(GrandfatherError) -> (Audit, RunOutcome) {
        if RunWriter.holdsRuns(in: directory, marked: "compare.md") {
            throw .usage("\(directory) holds dry-run comparisons; audit runs go to a folder of their own")
        }
        let (lock, record, settings) = try begin(policy)
        let before = try previousRun()
        var audit = try Pipeline.audits(
            [settings], inputs: inputs, progress: progress, previous: before, hooks: testHooks)[0]
        if let folder = warehouseResults { try WarehouseResults.apply(to: &audit, folder: folder) }
        events?.audited(audit)
        let writer = RunWriter(directory: directory, keep: keep, hooks: testHooks)
        return (audit, try writer.write(audit, run: record, processID: getpid(), lock: lock))
    }

    /// Audits `inputs` under two policies and writes what differs (a dry run): never an
    /// audit's folder.
    public func compare(
        _ first: Policy, _ second: Policy, inputs: [String]
    ) throws(GrandfatherError) -> (PolicyComparison, RunOutcome) {
        if RunWriter.holdsRuns(in: directory, marked: "snapshot.sqlite") {
            throw .usage(
                "\(directory) holds audit runs; compare writes to a folder of its own (default reports/compare)")
        }
        let (lock, record, settings) = try begin(first)
        let audits = try Pipeline.audits(
            [settings, settings.under(second)], inputs: inputs, progress: progress, hooks: testHooks)
        events?.audited(audits[0])
        let comparison = try PolicyComparison(audits[0], audits[1])
        let writer = RunWriter(directory: directory, keep: keep, hooks: testHooks)
        let outcome = try writer.publish(
            try ComparisonReports.files(comparison), run: record, processID: getpid(), lock: lock)
        return (comparison, outcome)
    }

    /// Takes the lock, checks the folder before any input is read, and fixes the run's id
    /// and instants.
    private func begin(_ policy: Policy) throws(GrandfatherError) -> (RunLock, RunRecord, AuditSettings) {
        let record = RunRecord(startingAt: clock(), processID: getpid())
        let lock = try RunLock.acquire(directory: directory, wait: wait, startedAt: record.startedAt)
        try RunWriter.preflight(directory: directory)
        let now = clock()
        var settings = AuditSettings(
            policy: policy, asOf: asOf ?? Instant(seconds: now.wholeSeconds), now: now, signatures: signatures)
        settings.mapping = mapping
        return (lock, record, settings)
    }

    /// The run to compare with: `previous` (which must be readable), else the one `latest`
    /// points to (an unreadable one is reported to `events`: tonight's audit still runs).
    private func previousRun() throws(GrandfatherError) -> PreviousRun {
        if let previous {
            let path = FileSystem.isDirectory(previous) ? FileSystem.join(previous, "snapshot.sqlite") : previous
            do {
                return .snapshot(try PreviousSnapshot(path: path))
            } catch {
                guard case .io(_, let message) = error else { throw error }
                throw .usage("--previous \(path): \(message)")
            }
        }
        let latest = FileSystem.join(directory, "latest")
        guard FileSystem.exists(latest) else { return .none(.firstRun) }
        let path = latest + "/snapshot.sqlite"
        do {
            return .snapshot(try PreviousSnapshot(path: path))
        } catch {
            events?.previousRunUnreadable(path: path, reason: error.description)
            return .none(.unreadable(path: path, reason: error.description))
        }
    }
}

/// What an `AuditRun` tells while it goes on, for the command's log; every method has a
/// default that does nothing.
public protocol AuditRunEvents: Sendable {
    /// The previous run's snapshot could not be read: the run goes on without comparing.
    func previousRunUnreadable(path: String, reason: String)
    /// Stages 1–4 are done; writing begins.
    func audited(_ audit: Audit)
}

extension AuditRunEvents {
    public func previousRunUnreadable(path: String, reason: String) {}
    public func audited(_ audit: Audit) {}
}
