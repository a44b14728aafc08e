import Foundation
import Testing

/// `grandfather normalize --out` (issue 33): it replaces only a folder it can prove it wrote,
/// one run at a time, keeping the folder's mode, and a run killed at any point of its replace
/// is put right by the next.
@Suite struct NormalizeReplaceTests {
    /// `normalize` of the small set into `out`.
    static func arguments(_ out: String = "w") -> [String] {
        [
            "normalize", "--policy", "policy.json", "--as-of", SmallData.asOf, "--out", out, "customers.csv",
            "transactions.csv",
        ]
    }

    /// The hidden names beside `w` other than its lock: what a run left.
    static func leftovers(_ cli: CLI) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter {
            $0.hasPrefix(".w.") && $0 != ".w.normalize.lock"
        }.sorted()
    }

    /// A folder's files and bytes but for the marker, whose token is each run's own.
    static func tables(_ cli: CLI, _ folder: String) throws -> [String: Data] {
        var files = try cli.contents(of: folder)
        #expect(files.removeValue(forKey: ".grandfather-normalize") != nil, "\(folder) has no marker")
        return files
    }

    @Test func aFolderItDidNotWriteIsRefusedWithEveryByteInPlace() throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        for (name, text) in [
            ("manifest.json", "{}\n"), ("schema.sql", "CREATE TABLE t (x INT);\n"), ("src/main.swift", "let x = 1\n"),
            (".git/HEAD", "ref: refs/heads/main\n"),
        ] {
            try cli.write("w/" + name, text)
        }
        let before = try cli.contents(of: "w")
        let refused = try cli.run(Self.arguments())
        #expect(refused.status == 2)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("holds no .grandfather-normalize"), "\(refused.stderr)")
        #expect(refused.stderr.contains("remove it yourself"), "\(refused.stderr)")
        #expect(try cli.contents(of: "w") == before)
        #expect(try Self.leftovers(cli).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.path(".w.normalize.lock")), "refused before the lock")
    }

    /// What the kill must have left, point by point: the test proves the run died there.
    static let leftAtKill: [String: (outExists: Bool, leftovers: [String])] = [
        "mid-building": (true, [".w.normalize-building"]),
        "after-building": (true, [".w.normalize-building"]),
        "after-first-rename": (false, [".w.normalize-building", ".w.normalize-replaced"]),
        "after-second-rename": (true, [".w.normalize-replaced"]),
        "before-removing-old": (true, [".w.normalize-replaced"]),
    ]

    @Test(arguments: [
        "mid-building", "after-building", "after-first-rename", "after-second-rename", "before-removing-old",
    ])
    func aKillAtAnyPointOfTheReplaceIsPutRightByTheNextRun(point: String) throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        let first = try cli.run(Self.arguments())
        try #require(first.status == 0, "\(first.stderr)")
        // Other inputs, so that the folders differ.
        try cli.write(
            "transactions.csv", SmallData.transactions.replacingOccurrences(of: "2024-06-15", with: "2024-05-20"))

        let killed = try cli.run(Self.arguments() + ["--test-kill-at", point])
        #expect(killed.status == SIGKILL, "the run died at \(point): \(killed.stderr)")
        let expected = try #require(Self.leftAtKill[point])
        #expect(FileManager.default.fileExists(atPath: cli.path("w")) == expected.outExists)
        #expect(try Self.leftovers(cli) == expected.leftovers)

        let next = try cli.run(Self.arguments())
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("warning: a killed normalize into w left its folders behind"), "\(next.stderr)")
        #expect(next.stderr.contains("moved .w.normalize-replaced back to w") == !expected.outExists)
        #expect(try Self.leftovers(cli).isEmpty)
        let fresh = try cli.run(Self.arguments("fresh"))
        try #require(fresh.status == 0, "\(fresh.stderr)")
        #expect(try Self.tables(cli, "w") == Self.tables(cli, "fresh"), "w is not a whole, new folder")
    }

    @Test func theModeOfTheReplacedFolderIsKept() throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        try #require(try cli.run(Self.arguments()).status == 0)
        for mode in [0o700, 0o750] {
            #expect(chmod(cli.path("w"), mode_t(mode)) == 0)
            let again = try cli.run(Self.arguments())
            #expect(again.status == 0, "\(again.stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: cli.path("w"))
            #expect((attributes[.posixPermissions] as? Int) == mode, "mode \(String(mode, radix: 8)) not kept")
        }
    }

    /// `--out` is refused before any input is read: the missing input is never reached.
    @Test(arguments: ["", ".", "..", "/", "dir/.."])
    func anOutThatNamesNoFolderExitsTwoBeforeTheInputs(out: String) throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        let result = try cli.run(["normalize", "--policy", "policy.json", "--out", out, "nowhere.csv"])
        #expect(result.status == 2)
        #expect(
            result.stderr == "grandfather: error: --out '\(out)' names no folder of its own; "
                + "give the folder to write, as --out warehouse\n")
    }

    @Test func aSecondRunIntoTheSameFolderExitsAtOnceNamingTheHolder() throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        let holder = try cli.start(Self.arguments() + ["--test-pause-at", "after-ingest"])
        let holding = Poll.until(seconds: 30) {
            let text = try? String(contentsOfFile: cli.path(".w.normalize.lock"), encoding: .utf8)
            return text?.contains("pid \(holder.pid),") == true
        }
        try #require(holding, "the first run never took the lock: \(holder.stderr)")

        let second = try cli.run(Self.arguments())
        #expect(second.status == 1)
        #expect(second.stderr.split(separator: "\n").count == 1, "\(second.stderr)")
        #expect(second.stderr.contains(".w.normalize.lock: error: another run holds the lock"), "\(second.stderr)")
        #expect(second.stderr.contains("pid \(holder.pid), started 20"), "\(second.stderr)")

        let waiting = try cli.start(Self.arguments() + ["--wait", "60"])
        usleep(300_000)
        #expect(waiting.process.isRunning, "it waits for the lock")
        holder.kill()
        #expect(waiting.wait(seconds: 60) == 0, "\(waiting.stderr)")
        #expect(try Self.tables(cli, "w").keys.contains("manifest.json"))
    }
}
