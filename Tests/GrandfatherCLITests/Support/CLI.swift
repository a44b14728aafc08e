import Foundation
import Testing

/// Runs the built `grandfather` binary in a fresh temporary folder, as a cron job would.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `grandfather` executable next to the test bundle in the build folder.
    static let executable: URL = {
        var candidates: [URL] = []
        let argument = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        candidates.append(argument.appendingPathComponent("grandfather"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("grandfather"))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("grandfather"))
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("grandfather"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// A fresh folder for one test.
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("grandfather-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes a file into the test folder.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A folder holding the warehouse layout's input tables as empty files: all `sql --load`
    /// looks for before it writes the script.
    @discardableResult
    func writeLayoutFolder(_ name: String) throws -> String {
        for table in ["customers", "transactions-00001", "product_entitlements", "service_entitlements"] {
            try write(name + "/" + table + ".csv", "")
        }
        return path(name)
    }

    /// Copies a bundled file into the test folder.
    @discardableResult
    func copy(_ source: URL, as name: String? = nil) throws -> String {
        let target = folder.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: target)
        return target.path
    }

    /// A `grandfather` process with arguments, in the test folder, not yet started.
    func process(_ arguments: [String], environment: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        return process
    }

    /// Runs `grandfather` with arguments, in the test folder.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = process(arguments, environment: environment)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and hang the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Every regular file under `relative`, with its bytes, for byte-identity checks.
    func contents(of relative: String) throws -> [String: Data] {
        let root = folder.appendingPathComponent(relative).resolvingSymlinksInPath()
        var result: [String: Data] = [:]
        let names = try FileManager.default.subpathsOfDirectory(atPath: root.path)
        for name in names.sorted() {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[name] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return result
    }

    /// Where `DIR/latest` points, relative.
    func latestTarget(_ out: String = "out") -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path(out + "/latest"))
    }

    /// Names in `DIR/runs`, hidden ones included.
    func runFolders(_ out: String = "out") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path(out + "/runs"))) ?? []).sorted()
    }
}

/// The conformance set copied from the project's shared folder (see its README).
enum Conformance {
    static var folder: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Conformance", withExtension: nil))
        }
    }

    static func file(_ name: String) throws -> URL {
        try folder.appendingPathComponent(name)
    }

    /// The as-of instant the set's expectations hold at.
    static let asOf = "2024-06-01T00:00:00Z"

    /// Copies the set and `policy` into the CLI's folder; returns the audit arguments (`--out out`).
    static func install(in cli: CLI, policy: String = "policy.json") throws -> [String] {
        for name in ["customers.csv", "transactions.csv", "transactions.jsonl", policy] {
            try cli.copy(try file(name))
        }
        return [
            "audit", "--policy", policy, "--as-of", asOf, "--out", "out",
            "customers.csv", "transactions.csv", "transactions.jsonl",
        ]
    }
}
