import Foundation
import Testing

/// One run at a time per output folder (SPEC §6): `DIR/.lock`, held by `flock`.
@Suite struct LockTests {
    /// Starts a run that takes the lock and then waits, paused after ingest, to be killed.
    private func holdingRun(_ cli: CLI, _ arguments: [String]) throws -> BackgroundRun {
        let holder = try cli.start(arguments + ["--test-pause-at", "after-ingest"])
        let holding = Poll.until(seconds: 30) { cli.lockHolder().contains("pid \(holder.pid),") }
        try #require(holding, "the first run never took the lock: \(holder.stderr)")
        return holder
    }

    @Test func secondRunExitsAtOnceNamingTheHolderAndRunsOnceTheHolderIsKilled() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let holder = try holdingRun(cli, arguments)

        let started = Date()
        let second = try cli.run(arguments)
        let waited = Date().timeIntervalSince(started)
        #expect(second.status == 1)
        #expect(waited < 1, "the second run must not wait: \(waited) s")
        let lines = second.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(second.stderr.contains("another run holds the lock"))
        #expect(second.stderr.contains("pid \(holder.pid), started 20"), "names pid and start time: \(second.stderr)")
        #expect(cli.latestTarget() == nil, "the refused run wrote nothing")

        holder.kill()
        let third = try cli.run(arguments)
        #expect(third.status == 0, "a killed holder never blocks the next run: \(third.stderr)")
        #expect(cli.latestTarget() != nil)
    }

    @Test func waitGivesUpAfterItsSecondsAndSucceedsWhenTheHolderGoes() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let holder = try holdingRun(cli, arguments)

        let started = Date()
        let impatient = try cli.run(arguments + ["--wait", "1"])
        let waited = Date().timeIntervalSince(started)
        #expect(impatient.status == 1)
        #expect(impatient.stderr.contains("after waiting 1 s"))
        #expect(waited >= 0.9 && waited < 10, "waited \(waited) s")

        let patient = try cli.start(arguments + ["--wait", "60"])
        usleep(300_000)
        #expect(patient.process.isRunning, "it waits for the lock")
        holder.kill()
        #expect(patient.wait(seconds: 60) == 0, "\(patient.stderr)")
        #expect(cli.latestTarget() != nil)
    }

    @Test func aLockFileReplacedByASymbolicLinkIsRefused() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        try FileManager.default.createDirectory(atPath: cli.path("out"), withIntermediateDirectories: true)
        try cli.write("elsewhere", "not a lock")
        try FileManager.default.createSymbolicLink(atPath: cli.path("out/.lock"), withDestinationPath: "../elsewhere")
        let result = try cli.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains("out/.lock: error: cannot open the lock file"))
        #expect(try String(contentsOfFile: cli.path("elsewhere"), encoding: .utf8) == "not a lock")
    }
}
