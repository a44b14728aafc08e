import Foundation
import Testing

@_spi(TestHooks) @testable import GrandfatherCore

/// Issue 17's "one table, two engines": every fixture run (`AuditFixture.run`), and so every
/// rule table the rules are tested with, is also normalized, classified by `grandfather sql`'s
/// DuckDB script and compared customer by customer with the Swift audit. A difference is
/// recorded as an issue of the test that ran the fixture, naming the customer and both answers.
enum SQLTwin {
    /// Normalizes `inputs` under `settings` into `folder`, runs the DuckDB script on them and
    /// records every customer whose answer differs from `audit`'s.
    static func check(
        _ audit: Audit, inputs: [String], settings: AuditSettings, folder: URL, hooks: TestHooks,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let out = folder.appendingPathComponent("sql-twin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        do {
            _ = try NormalizedFolder.write(settings, inputs: inputs, out: out.path, progress: nil, hooks: hooks)
        } catch {
            // Past the threshold normalize writes nothing; the audit's own test says what it must.
            if case .dataQuality = error { return }
            throw error
        }
        var options = ClassificationScript.Options(dialect: .duckdb)
        options.load = out.path
        let script = out.appendingPathComponent("audit.sql")
        try Data(try ClassificationScript.text(settings, options).utf8).write(to: script)
        let reply = try DuckDBServer.next().run(script: script.path)
        func rows(_ table: String) throws -> [[String?]] {
            let rows = try #require(reply[table] as? [[Any]], "the twin's reply has no \(table)")
            return rows.map { row in row.map { $0 as? String } }
        }
        let twin = WarehouseAnswers.of(
            customers: try rows("customers"), flags: try rows("customer_flags"), entitlements: try rows("entitlements"))
        for difference in WarehouseAnswers.differences(WarehouseAnswers.of(audit), twin).prefix(10) {
            let message =
                "SQL twin: customer \(difference.id): audit says \(difference.left.map(\.description) ?? "nothing"); "
                + "DuckDB says \(difference.right.map(\.description) ?? "nothing")"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }
}

/// A `warehouse/serve.py` that serves the whole test process: DuckDB runs a case's script in
/// a fresh database, and a case costs a query rather than a Python start. One per core, taken
/// in turn, since the tests run on every core.
final class DuckDBServer: @unchecked Sendable {
    private static let pool = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map { _ in DuckDBServer() }
    private static let turn = NSLock()
    nonisolated(unsafe) private static var last = 0

    /// The server whose turn it is.
    static func next() -> DuckDBServer {
        turn.lock()
        defer { turn.unlock() }
        last = (last + 1) % pool.count
        return pool[last]
    }

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var pending = Data()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("warehouse/serve.py")

    /// Runs the script at `path`; the reply's tables, or a thrown error with DuckDB's words.
    func run(script path: String) throws -> [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        let (input, output) = try started()
        let request = try JSONSerialization.data(withJSONObject: ["script": path]) + Data("\n".utf8)
        try input.write(contentsOf: request)
        while !pending.contains(UInt8(ascii: "\n")) {
            let more = output.availableData
            guard !more.isEmpty else {
                process = nil
                throw TwinError(
                    "warehouse/serve.py ended; is DuckDB installed? (scripts/install-engines duckdb)")
            }
            pending.append(more)
        }
        let end = pending.firstIndex(of: UInt8(ascii: "\n")) ?? pending.endIndex
        let line = pending[pending.startIndex..<end]
        pending = Data(pending[pending.index(after: end)...])
        let reply = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        guard reply["ok"] as? Bool == true else {
            throw TwinError("DuckDB failed on \(path): \(reply["error"] as? String ?? "no reason")")
        }
        return reply
    }

    private func started() throws -> (FileHandle, FileHandle) {
        if let process, process.isRunning, let input, let output { return (input, output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path]
        let requests = Pipe()
        let replies = Pipe()
        process.standardInput = requests
        process.standardOutput = replies
        try process.run()
        self.process = process
        input = requests.fileHandleForWriting
        output = replies.fileHandleForReading
        pending = Data()
        return (requests.fileHandleForWriting, replies.fileHandleForReading)
    }

    struct TwinError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
