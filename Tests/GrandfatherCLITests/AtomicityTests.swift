import Foundation
import Testing

/// A run that fails after writing has begun leaves `latest` and what it points to byte-identical.
@Suite struct AtomicityTests {
    @Test(arguments: ["after-reports", "after-snapshot", "before-latest-switch"])
    func failureAfterWritingBeganLeavesLatestUntouched(point: String) throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let before = try cli.contents(of: "out/latest")
        let target = cli.latestTarget()

        // Change the input so a successful run would produce different bytes.
        try cli.write(
            "transactions.csv", SmallData.transactions.replacingOccurrences(of: "2024-06-15", with: "2024-05-20"))
        let failed = try cli.run(arguments + ["--test-fail-at", point])
        #expect(failed.status == 1)
        #expect(failed.stderr.split(separator: "\n").count == 1)
        #expect(cli.latestTarget() == target)
        #expect(try cli.contents(of: "out/latest") == before)
        #expect(!cli.runFolders().contains { $0.hasPrefix(".partial-") }, "no half-written folder is left")

        // The next run succeeds and moves latest.
        #expect(try cli.run(arguments).status == 0)
        #expect(cli.latestTarget() != target)
        #expect(try cli.contents(of: "out/latest") != before)
    }

    @Test func abandonedStagingFolderOfADeadProcessIsRemovedByTheNextRun() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        // pid 2^22+1 is above Linux's pid_max default range and never alive.
        let abandoned = cli.path("out/runs/.partial-20240101T000000.000Z-1-4194305")
        try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: true)
        try cli.write("out/runs/.partial-20240101T000000.000Z-1-4194305/summary.md", "half")
        #expect(try cli.run(arguments).status == 0)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
    }

    @Test func latestThatIsNotALinkIsNeverReplaced() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        try FileManager.default.createDirectory(atPath: cli.path("out/latest"), withIntermediateDirectories: true)
        try cli.write("out/latest/precious.txt", "keep me")
        let result = try cli.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not a symbolic link"))
        #expect(try String(contentsOfFile: cli.path("out/latest/precious.txt"), encoding: .utf8) == "keep me")
    }

    @Test func otherFilesInTheOutputFolderAreLeftAlone() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        try cli.write("out/.gitkeep", "")
        #expect(try cli.run(arguments).status == 0)
        #expect(try cli.run(arguments).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.path("out/.gitkeep")))
    }
}
