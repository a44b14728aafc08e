import Foundation
import Testing

@_spi(TestHooks) @testable import GrandfatherCore

/// Issue 17's "one table, two engines": every fixture run (`AuditFixture.run`), and so every
/// rule table the rules are tested with, is also normalized, classified by `grandfather sql`'s
/// DuckDB script and compared customer by customer with the Swift audit. A difference is
/// recorded as an issue of the test that ran the fixture, naming the customer and both answers.
enum SQLTwin {
    /// What one customer came out as, in the columns both engines give.
    struct Answer: Equatable, CustomStringConvertible {
        var facts: [String?]
        var flags: [String] = []
        var grants: [[String?]] = []

        var description: String {
            func cells(_ values: [String?]) -> String {
                "(" + values.map { $0 ?? "NULL" }.joined(separator: ", ") + ")"
            }
            return "\(cells(facts)) flags=\(flags) grants=\(grants.map(cells))"
        }
    }

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
        let twin = try answers(try DuckDBServer.next().run(script: script.path))
        let swift = answers(audit)
        var differences = 0
        for id in Set(swift.keys).union(twin.keys).sorted() where swift[id] != twin[id] {
            differences += 1
            guard differences <= 10 else { continue }
            let message =
                "SQL twin: customer \(id): audit says \(swift[id].map(\.description) ?? "nothing"); "
                + "DuckDB says \(twin[id].map(\.description) ?? "nothing")"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// The Swift audit's answers.
    static func answers(_ audit: Audit) -> [String: Answer] {
        var result: [String: Answer] = [:]
        for customer in audit.customers {
            let record = customer.customer
            result[record.id] = Answer(
                facts: [
                    record.platform?.rawValue, record.originalAppVersion,
                    record.originalPurchaseDate.map { String($0.microseconds) }, record.environment.rawValue,
                    customer.customerClass.rawValue,
                ],
                flags: customer.flags.map(\.code).sorted(),
                grants: customer.entitlements.map {
                    [
                        $0.entitlement, $0.source.rawValue, $0.transactionID,
                        $0.expiresDate.map { String($0.microseconds) },
                    ]
                }.sorted(by: order))
        }
        return result
    }

    /// DuckDB's answers, from the server's reply.
    static func answers(_ reply: [String: Any]) throws -> [String: Answer] {
        func rows(_ table: String) throws -> [[String?]] {
            let rows = try #require(reply[table] as? [[Any]], "the twin's reply has no \(table)")
            return rows.map { row in row.map { $0 as? String } }
        }
        func instant(_ text: String?) -> String? {
            guard let text else { return nil }
            guard case .success(let instant) = TimestampParser(defaultZone: nil).parse(text) else {
                return "bad:" + text
            }
            return String(instant.microseconds)
        }
        var result: [String: Answer] = [:]
        for row in try rows("customers") {
            result[row[0] ?? ""] = Answer(facts: [row[1], row[2], instant(row[3]), row[4], row[5]])
        }
        for row in try rows("customer_flags") {
            result[row[0] ?? "", default: Answer(facts: [])].flags.append(row[1] ?? "")
        }
        for row in try rows("entitlements") {
            result[row[0] ?? "", default: Answer(facts: [])].grants.append([row[1], row[2], row[3], instant(row[4])])
        }
        return result.mapValues { answer in
            var sorted = answer
            sorted.flags.sort()
            sorted.grants.sort(by: order)
            return sorted
        }
    }

    private static func order(_ left: [String?], _ right: [String?]) -> Bool {
        left.map { $0 ?? "" }.lexicographicallyPrecedes(right.map { $0 ?? "" })
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
