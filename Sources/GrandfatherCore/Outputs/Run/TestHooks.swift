import Foundation

// Named points where tests make a run fail or die, to prove that no failure and no kill
// leaves a torn output. The command maps its hidden `--test-fail-at`, `--test-kill-at` and
// `--test-pause-at` options to them, in debug builds only, through the `TestHooks` SPI; the
// library never reads the environment, and no public signature carries them.

/// A point in writing a run where a test can make the run fail with an I/O error.
@_spi(TestHooks) public enum WritePoint: String, CaseIterable, Sendable {
    case afterReports = "after-reports"
    case afterSnapshot = "after-snapshot"
    case beforeLatestSwitch = "before-latest-switch"
}

/// A point where a test can make the process SIGKILL itself, as the OOM killer or an
/// operator might: no handler runs, no file is closed.
@_spi(TestHooks) public enum KillPoint: String, CaseIterable, Sendable {
    case afterIngest = "after-ingest"
    case midClassify = "mid-classify"
    /// The snapshot's parts are written, not yet merged.
    case midSnapshot = "mid-snapshot"
    case afterSnapshot = "after-snapshot"
    case beforeLatestSwitch = "before-latest-switch"
    case afterLatestSwitch = "after-latest-switch"
    // `normalize`'s replace of its folder (`NormalizeTarget+Replace.swift`).
    /// The first table is written into the hidden building folder, the others not yet.
    case midBuilding = "mid-building"
    /// The building folder is whole and marked; OUT is as it was.
    case afterBuilding = "after-building"
    /// OUT is moved aside: no folder has its name.
    case afterFirstRename = "after-first-rename"
    /// The new folder is OUT; the old one waits under its hidden name.
    case afterSecondRename = "after-second-rename"
    /// The renames are flushed; the old folder is not yet removed.
    case beforeRemovingOld = "before-removing-old"
}

/// Where a test asked this run to fail, to die, or to stop and wait to be killed (holding
/// its lock, so that a second run can be started against it), and how the ingest stage cuts
/// files; empty in every real run.
@_spi(TestHooks) public struct TestHooks: Sendable {
    public var failAt: WritePoint?
    public var killAt: KillPoint?
    public var pauseAt: KillPoint?
    /// Tests force small ranges to check that parsing in parts gives what one pass gives.
    var ingest = IngestOptions()

    public init(failAt: WritePoint? = nil, killAt: KillPoint? = nil, pauseAt: KillPoint? = nil) {
        self.failAt = failAt
        self.killAt = killAt
        self.pauseAt = pauseAt
    }

    /// Dies, or waits for a signal forever, here if a test asked for it.
    func reach(_ point: KillPoint) {
        if killAt == point { kill(getpid(), SIGKILL) }
        guard killAt == point || pauseAt == point else { return }
        // SIGKILL cannot be caught: wait for it to land, or for the test to send one.
        while true { pause() }
    }

    /// Fails writing into `directory` with an I/O error here if a test asked for it.
    func fail(at point: WritePoint, writing directory: String) throws(GrandfatherError) {
        if failAt == point { throw .io(path: directory, message: "failing at \(point.rawValue) as the test asked") }
    }
}
