import Foundation
import GrandfatherEngine

/// Where a run ended up.
public struct RunOutcome: Sendable, Equatable {
    /// The run's finished folder, `DIR/runs/<run-id>`.
    public var runFolder: String
    /// Whether `DIR/latest` now points to it (not when the data-quality threshold was exceeded).
    public var movedLatest: Bool
    /// Every stage's seconds, writing included.
    public var timings: StageTimings
}

/// Puts a run on disk (SPEC §6): every output into a hidden folder of its own, flushed,
/// renamed to `DIR/runs/<run-id>`, and only then `DIR/latest` repointed by renaming a new
/// symbolic link over it. Whatever fails or dies before the rename leaves `latest` and what
/// it points to untouched; a half-written folder is hidden and removed by the next run.
public struct RunWriter: Sendable {
    /// The output folder `DIR`.
    public let directory: String
    /// Run folders to keep, the newest; the one `latest` points to is always kept.
    public var keep: Int
    /// Makes the run fail or die at a point, for tests of atomicity and crash safety.
    var hooks: TestHooks

    /// SPEC §6's default for `--keep`.
    public static let defaultKeep = 14

    public init(directory: String, keep: Int = defaultKeep) {
        self.init(directory: directory, keep: keep, hooks: TestHooks())
    }

    init(directory: String, keep: Int, hooks: TestHooks) {
        self.directory = directory
        self.keep = keep
        self.hooks = hooks
    }

    var runsDirectory: String { FileSystem.join(directory, "runs") }
    var latestLink: String { FileSystem.join(directory, "latest") }

    /// Checks what the run will write into before any input is read, so that a folder it
    /// cannot publish into fails at once rather than after the whole audit: `latest` must be
    /// absent or a symbolic link, `runs` absent or a folder.
    public static func preflight(directory: String) throws(GrandfatherError) {
        let writer = RunWriter(directory: directory)
        var status = stat()
        if lstat(writer.latestLink, &status) == 0, status.st_mode & S_IFMT != S_IFLNK {
            throw .io(
                path: writer.latestLink,
                message:
                    "is not a symbolic link; Grandfather switches latest by renaming a link over it, so move this aside"
            )
        }
        if lstat(writer.runsDirectory, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
            throw .io(path: writer.runsDirectory, message: "is not a folder; move it aside")
        }
    }

    /// Renders every report, writes the snapshot, publishes the run, and prunes old runs.
    ///
    /// `lock` is the proof that this process holds `DIR/.lock`: only then may it remove
    /// what other runs left behind.
    public func write(
        _ audit: Audit, run: RunRecord, processID: Int32, lock: RunLock
    ) throws(GrandfatherError) -> RunOutcome {
        var timings = audit.timings
        let final = try stage(run, processID: processID, lock: lock) { staging throws(GrandfatherError) in
            // The reports and the snapshot's two parts are independent renderings of the
            // audit, written at once on every core. The snapshot's parts are started first,
            // as the longest jobs; whichever part ends second merges them, while the other
            // core goes on with the reports.
            let snapshot = staging + "/snapshot.sqlite"
            let partsLeft = Countdown(SnapshotWriter.Part.allCases.count)
            let seconds = ResultSlots<Double, GrandfatherError>(count: 4)
            DispatchQueue.concurrentPerform(iterations: 4) { job in
                seconds.store(
                    job,
                    Result { () throws(GrandfatherError) in
                        switch job {
                        case 0, 1:
                            let part = job == 0 ? SnapshotWriter.Part.customers : .grants
                            var spent: Double
                            do throws(GrandfatherError) {
                                spent = try SnapshotWriter.write(part, of: audit, snapshot: snapshot)
                            } catch {
                                // The other part must not merge what this one did not finish.
                                partsLeft.fail()
                                throw error
                            }
                            if partsLeft.finishOne() { spent += try SnapshotWriter.merge(snapshot: snapshot) }
                            return spent
                        case 2: return try writeReports([.customersTable], audit, into: staging)
                        default: return try writeReports([.summaries], audit, into: staging)
                        }
                    })
            }
            let finishing = Stopwatch()
            timings.reports = max(try seconds.take(2), try seconds.take(3))
            let parts = max(try seconds.take(0), try seconds.take(1))
            try fail(at: .afterReports)
            hooks.reach(.midSnapshot)
            timings.snapshot = parts
            try SnapshotWriter.finish(audit, run: run, timings: timings, snapshot: snapshot)
            timings.snapshot = parts + finishing.elapsed
            try Disk.sync(snapshot)
            try fail(at: .afterSnapshot)
            hooks.reach(.afterSnapshot)
        }
        let moves = !audit.exceedsRejectionThreshold
        if moves {
            try fail(at: .beforeLatestSwitch)
            hooks.reach(.beforeLatestSwitch)
            try switchLatest(to: "runs/" + run.runID, processID: processID)
            hooks.reach(.afterLatestSwitch)
        }
        try prune()
        return RunOutcome(runFolder: final, movedLatest: moves, timings: timings)
    }

    /// Publishes files made elsewhere (a dry run's comparison) as one run, with the same
    /// staging, flush, rename, switch of `latest` and pruning as an audit.
    public func publish(
        _ files: [(String, [UInt8])], run: RunRecord, processID: Int32, lock: RunLock
    ) throws(GrandfatherError) -> RunOutcome {
        let final = try stage(run, processID: processID, lock: lock) { staging throws(GrandfatherError) in
            for (name, bytes) in files { try Disk.writeNewFile(staging + "/" + name, bytes) }
        }
        try switchLatest(to: "runs/" + run.runID, processID: processID)
        try prune()
        return RunOutcome(runFolder: final, movedLatest: true, timings: StageTimings())
    }

    /// Makes the run's hidden staging folder (after removing what dead runs left), lets
    /// `fill` write into it, flushes it and renames it to `runs/<run-id>`, whose path it
    /// returns; on any failure the staging folder is removed.
    private func stage(
        _ run: RunRecord, processID: Int32, lock: RunLock, _ fill: (String) throws(GrandfatherError) -> Void
    ) throws(GrandfatherError) -> String {
        try Disk.makeDirectories(runsDirectory)
        if FileSystem.exists(latestLink), !FileSystem.isSymbolicLink(latestLink) {
            throw .io(path: latestLink, message: "exists and is not a symbolic link; refusing to replace it")
        }
        try removeLeftovers(lock)
        let staging = runsDirectory + "/.partial-\(run.runID)-\(processID)"
        let final = runsDirectory + "/" + run.runID
        guard !FileSystem.exists(final) else { throw .io(path: final, message: "run folder already exists") }
        try Disk.makeFreshDirectory(staging)
        do throws(GrandfatherError) {
            try fill(staging)
            try Disk.sync(staging)
            try Disk.rename(staging, final)
            try Disk.sync(runsDirectory)
        } catch {
            try? Disk.remove(staging)
            throw error
        }
        return final
    }

    /// Whether a run folder of this output folder holds a file called `name`: how an audit's
    /// folder (`snapshot.sqlite`) and a dry run's (`compare.md`) tell each other apart.
    public static func holdsRuns(in directory: String, marked name: String) -> Bool {
        FileSystem.names(in: FileSystem.join(directory, "runs")).filter(isRunID).contains {
            FileSystem.exists(FileSystem.join(directory, "runs/") + $0 + "/" + name)
        }
    }

    /// Renders and writes every report; returns the seconds it took.
    /// The reports, in two groups written by two jobs.
    private enum ReportGroup {
        /// `customers.csv`: one row per customer.
        case customersTable
        /// Everything else: `summary.md`, `summary.json`, `rejected.csv`, `report.html`, and
        /// `grants.csv` and `grants.jsonl` when the run reconciled RevenueCat's entitlements.
        case summaries
    }

    private func writeReports(
        _ groups: [ReportGroup], _ audit: Audit, into folder: String
    ) throws(GrandfatherError) -> Double {
        let start = Stopwatch()
        for group in groups {
            var reports: [(String, [UInt8])]
            switch group {
            case .customersTable:
                try Disk.writeNewFile(folder + "/customers.csv") { descriptor in
                    var failure: Int32?
                    let rest = CustomersCSV.write(audit, drainingAt: 1 << 20) { bytes in
                        if failure == nil { failure = FileWriting.writeAll(bytes, to: descriptor) }
                    }
                    return failure ?? FileWriting.writeAll(rest, to: descriptor)
                }
                continue
            case .summaries:
                reports = [
                    ("summary.md", SummaryMarkdown.render(audit)),
                    ("summary.json", try SummaryJSON.render(audit)),
                    ("rejected.csv", RejectedCSV.render(audit)),
                    ("report.html", try ReportHTML.render(audit)),
                ]
                if audit.reconciled {
                    reports.append(("grants.csv", GrantsFiles.csv(audit)))
                    reports.append(("grants.jsonl", try GrantsFiles.jsonLines(audit)))
                }
            }
            for (name, bytes) in reports { try Disk.writeNewFile(folder + "/" + name, bytes) }
        }
        return start.elapsed
    }

    private func fail(at point: WritePoint) throws(GrandfatherError) {
        try hooks.fail(at: point, writing: directory)
    }

    /// Renames a new relative symlink over `latest`: readers see the old run or the new, never neither.
    private func switchLatest(to target: String, processID: Int32) throws(GrandfatherError) {
        let temporary = FileSystem.join(directory, ".latest-\(processID)")
        try Disk.remove(temporary)
        guard symlink(target, temporary) == 0 else {
            throw .io(path: temporary, message: "cannot create link: \(FileSystem.describeErrno())")
        }
        do throws(GrandfatherError) {
            try Disk.rename(temporary, latestLink)
        } catch {
            try? Disk.remove(temporary)
            throw error
        }
        try Disk.sync(directory)
    }

    /// Removes what runs that died left behind: staging folders and temporary links. With
    /// the lock held no other run is writing, so every one of them is abandoned (a pid in
    /// the name could have been reused; the lock cannot lie).
    private func removeLeftovers(_ lock: RunLock) throws(GrandfatherError) {
        for name in FileSystem.names(in: runsDirectory) where name.hasPrefix(".partial-") {
            try Disk.remove(runsDirectory + "/" + name)
        }
        for name in FileSystem.names(in: directory) where name.hasPrefix(".latest-") {
            try Disk.remove(FileSystem.join(directory, name))
        }
    }

    /// Removes run folders beyond the newest `keep` (run ids sort by start time), never the
    /// one `latest` points to.
    private func prune() throws(GrandfatherError) {
        let current = FileSystem.linkTarget(latestLink).map { ($0 as NSString).lastPathComponent }
        let runs = FileSystem.names(in: runsDirectory).filter(Self.isRunID).sorted(by: >)
        for name in runs.dropFirst(max(keep, 1)) where name != current {
            try Disk.remove(runsDirectory + "/" + name)
        }
    }

    /// Whether a name is a run folder's, `yyyyMMddTHHmmss.SSSZ-pid`: nothing else in
    /// `runs/` is ever pruned.
    static func isRunID(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let shape = Array("00000000T000000.000Z-".utf8)
        guard bytes.count > shape.count else { return false }
        for (byte, expected) in zip(bytes, shape) {
            if expected == UInt8(ascii: "0") ? !(0x30...0x39).contains(byte) : byte != expected { return false }
        }
        return bytes[shape.count...].allSatisfy { (0x30...0x39).contains($0) }
    }
}
