import Foundation

/// A point in writing a run where a test can make the run fail (the command maps
/// `GRANDFATHER_TEST_FAIL_AT` to it; the library never reads the environment).
public enum WritePoint: String, CaseIterable, Sendable {
    case afterReports = "after-reports"
    case afterSnapshot = "after-snapshot"
    case beforeLatestSwitch = "before-latest-switch"
}

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
/// symbolic link over it. Whatever fails before the rename leaves `latest` and what it
/// points to untouched; a half-written folder is hidden and removed by the next run.
public struct RunWriter: Sendable {
    /// The output folder `DIR`.
    public let directory: String
    /// Makes the run fail at a point, for tests of atomicity.
    public var failAt: WritePoint?

    public init(directory: String, failAt: WritePoint? = nil) {
        self.directory = directory
        self.failAt = failAt
    }

    var runsDirectory: String { directory + "/runs" }
    var latestLink: String { directory + "/latest" }

    /// Renders every report, writes the snapshot, and publishes the run.
    public func write(_ audit: Audit, run: RunRecord, processID: Int32) throws(GrandfatherError) -> RunOutcome {
        try FileSystem.makeDirectories(runsDirectory)
        if FileSystem.exists(latestLink), !FileSystem.isSymbolicLink(latestLink) {
            throw .io(path: latestLink, message: "exists and is not a symbolic link; refusing to replace it")
        }
        try removeAbandonedFolders()
        let staging = runsDirectory + "/.partial-\(run.runID)-\(processID)"
        let final = runsDirectory + "/" + run.runID
        guard !FileSystem.exists(final) else { throw .io(path: final, message: "run folder already exists") }
        try FileSystem.makeFreshDirectory(staging)
        var timings = audit.timings
        do {
            // The reports and the snapshot's two parts are independent renderings of the
            // audit, written at once on every core.
            let snapshot = staging + "/snapshot.sqlite"
            let seconds = ResultSlots<Double>(count: 3)
            DispatchQueue.concurrentPerform(iterations: 3) { job in
                seconds.store(
                    job,
                    Result { () throws(GrandfatherError) in
                        switch job {
                        case 0: return try SnapshotWriter.write(.customers, of: audit, snapshot: snapshot)
                        case 1: return try SnapshotWriter.write(.grants, of: audit, snapshot: snapshot)
                        default: return try writeReports(audit, into: staging)
                        }
                    })
            }
            let clock = ContinuousClock()
            let finishing = clock.now
            timings.reports = try seconds.take(2)
            let parts = max(try seconds.take(0), try seconds.take(1))
            try fail(at: .afterReports)
            timings.snapshot = parts
            try SnapshotWriter.finish(audit, run: run, timings: timings, snapshot: snapshot)
            timings.snapshot = parts + Pipeline.seconds(clock.now - finishing)
            try FileSystem.sync(snapshot)
            try fail(at: .afterSnapshot)

            try FileSystem.sync(staging)
            try FileSystem.rename(staging, final)
            try FileSystem.sync(runsDirectory)
        } catch {
            try? FileSystem.remove(staging)
            throw error
        }
        if audit.exceedsRejectionThreshold {
            return RunOutcome(runFolder: final, movedLatest: false, timings: timings)
        }
        try fail(at: .beforeLatestSwitch)
        try switchLatest(to: "runs/" + run.runID, processID: processID)
        return RunOutcome(runFolder: final, movedLatest: true, timings: timings)
    }

    /// Renders and writes every report; returns the seconds it took.
    private func writeReports(_ audit: Audit, into folder: String) throws(GrandfatherError) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let reports: [(String, [UInt8])] = [
            ("summary.md", SummaryMarkdown.render(audit)),
            ("summary.json", try SummaryJSON.render(audit)),
            ("customers.csv", CustomersCSV.render(audit)),
            ("rejected.csv", RejectedCSV.render(audit)),
        ]
        for (name, bytes) in reports { try FileSystem.writeNewFile(folder + "/" + name, bytes) }
        return Pipeline.seconds(clock.now - start)
    }

    private func fail(at point: WritePoint) throws(GrandfatherError) {
        if failAt == point { throw .io(path: directory, message: "failing at \(point.rawValue) as the test asked") }
    }

    /// Renames a new relative symlink over `latest`: readers see the old run or the new, never neither.
    private func switchLatest(to target: String, processID: Int32) throws(GrandfatherError) {
        let temporary = directory + "/.latest-\(processID)"
        try FileSystem.remove(temporary)
        guard symlink(target, temporary) == 0 else {
            throw .io(path: temporary, message: "cannot create link: \(FileSystem.describeErrno())")
        }
        do {
            try FileSystem.rename(temporary, latestLink)
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
        try FileSystem.sync(directory)
    }

    /// Removes staging folders left by runs that died, recognised by a process id that is gone.
    private func removeAbandonedFolders() throws(GrandfatherError) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: runsDirectory) else { return }
        for name in names.sorted() where name.hasPrefix(".partial-") {
            guard let pidText = name.split(separator: "-").last, let pid = Int32(pidText) else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }  // still running
            try FileSystem.remove(runsDirectory + "/" + name)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasPrefix(".latest-") {
            guard let pid = Int32(name.dropFirst(".latest-".count)) else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            try FileSystem.remove(directory + "/" + name)
        }
    }
}
