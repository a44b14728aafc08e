import Foundation
import Testing

/// Whole runs compared with reviewed files under `Golden/<scenario>/expected/`: every report
/// and a text dump of the snapshot (all tables but `runs`). A mismatch prints a unified
/// diff; `RECORD_GOLDENS=1 scripts/test` rewrites the files, to be reviewed in the diff.
@Suite struct GoldenTests {
    static let goldenRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"

    @Test func conformanceRun() throws {
        let cli = try CLI()
        let result = try cli.run(try Conformance.install(in: cli))
        #expect(result.status == 0)
        try Self.compare(scenario: "conformance", cli: cli)
    }

    static func compare(scenario: String, cli: CLI) throws {
        let expected = goldenRoot.appendingPathComponent(scenario).appendingPathComponent("expected")
        var actual: [String: Data] = [:]
        for report in ["summary.md", "summary.json", "customers.csv", "rejected.csv"] {
            actual[report] = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/\(report)")))
        }
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        #expect(try dump.text("SELECT count(*) FROM pragma_foreign_key_check") == "0", "every reference resolves")
        #expect(!FileManager.default.fileExists(atPath: cli.path("out/latest/snapshot.sqlite.grants")))
        var text = "user_version \(try dump.userVersion())\n"
        for table in try dump.tables() where table != "runs" {
            text += "\n## \(table)\n" + (try dump.rows(table)).joined(separator: "\n") + "\n"
        }
        actual["snapshot.txt"] = Data(text.utf8)

        if recording {
            try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
            for (name, bytes) in actual { try bytes.write(to: expected.appendingPathComponent(name)) }
            return
        }
        for (name, bytes) in actual.sorted(by: { $0.key < $1.key }) {
            let file = expected.appendingPathComponent(name)
            let want = try? Data(contentsOf: file)
            if want != bytes {
                Issue.record("\(scenario)/\(name) differs from its golden file:\n\(try diff(file, bytes, cli: cli))")
            }
        }
    }

    /// A unified diff of the golden file against what the run wrote.
    static func diff(_ golden: URL, _ actual: Data, cli: CLI) throws -> String {
        let actualPath = cli.path("actual-" + golden.lastPathComponent)
        try actual.write(to: URL(fileURLWithPath: actualPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
        process.arguments = ["-u", golden.path, actualPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
