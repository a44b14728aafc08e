import Foundation
import Testing

/// Gzip-compressed inputs through the command: inflated under `TMPDIR`, reported as the
/// files on disk, and a `TMPDIR` that cannot take the inflated copy (or the fingerprints of
/// plain inputs) is one line, exit 1.
@Suite struct GzipCommandTests {
    /// Replaces `name` in the test folder by `name.gz`, compressed by gzip(1).
    static func gzip(_ name: String, in cli: CLI) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-n", name]
        process.currentDirectoryURL = cli.folder
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "gzip \(name)")
    }

    /// The small data set with both inputs gzipped; returns the audit arguments.
    static func install(in cli: CLI) throws -> [String] {
        let arguments = try SmallData.install(in: cli)
        try gzip("customers.csv", in: cli)
        try gzip("transactions.csv", in: cli)
        return arguments.map { $0.hasSuffix(".csv") ? $0 + ".gz" : $0 }
    }

    @Test func gzippedInputsAuditAsPlainOnesAndReportTheFilesOnDisk() throws {
        let cli = try CLI()
        let arguments = try Self.install(in: cli)
        let scratch = cli.path("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let result = try cli.run(arguments, environment: ["TMPDIR": scratch])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 customers (1 grandfathered, 1 subscriber, 1 lapsed, 0 new, 0 excluded)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [], "nothing left in TMPDIR")

        let summary = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/summary.json"))))
                as? [String: Any])
        let quality = try #require(summary["data_quality"] as? [String: Any])
        let files = try #require(quality["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["customers.csv.gz", "transactions.csv.gz"])
        let size = try FileManager.default.attributesOfItem(atPath: cli.path("transactions.csv.gz"))[.size] as? Int
        #expect(files.last?["size_bytes"] as? Int == size)
    }

    @Test func aTMPDIRThatCannotTakeTheInflatedCopyIsOneLineExit1() throws {
        let cli = try CLI()
        let arguments = try Self.install(in: cli)
        let missing = cli.path("no-such-folder")
        let result = try cli.run(arguments, environment: ["TMPDIR": missing])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "grandfather: customers.csv.gz: error: cannot make a temporary file in \(missing) to inflate into: No such file or directory\n"
        )
        #expect(!FileManager.default.fileExists(atPath: cli.path("out/latest")))
    }

    @Test func aTMPDIRThatCannotTakeTheFingerprintsIsOneLineExit1() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let missing = cli.path("no-such-folder")
        let result = try cli.run(arguments, environment: ["TMPDIR": missing])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "grandfather: transactions.csv: error: cannot make a temporary file in \(missing) to keep transaction fingerprints in: No such file or directory\n"
        )
        #expect(!FileManager.default.fileExists(atPath: cli.path("out/latest")))
    }
}
