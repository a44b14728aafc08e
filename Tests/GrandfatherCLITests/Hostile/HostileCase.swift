import Foundation
import GRDB
import Testing

/// One hostile or careless input and what must come of it, run against the built binary.
///
/// The catalogue (`HostileCatalogue.cases`) is the table docs/Hardening.md's "Hardening against bad
/// input" section is generated from: each row's input, exit code, stderr line, what else
/// must hold, and whether `DIR/latest` stays byte-identical.
struct HostileCase: Sendable, CustomTestStringConvertible {
    /// How the case is run, once its files are made.
    enum Invocation: Sendable {
        /// `grandfather audit --policy policy.json --as-of 2024-06-01T00:00:00Z --out out` and
        /// these inputs.
        case audit([String])
        /// `grandfather` with these arguments.
        case arguments([String])
        /// A shell script (`$GRANDFATHER` names the binary), for what arguments cannot say:
        /// bytes that are not UTF-8, a redirection, another user, the environment.
        case script(String)
    }

    /// What stderr must be.
    enum Stderr: Sendable {
        /// Nothing at all.
        case empty
        /// Exactly one line, `grandfather: ` and this.
        case line(String)
        /// Exactly one line, holding this.
        case lineContaining(String)
        /// Any number of lines (a JSON log), one of them holding this.
        case logContaining(String)
    }

    /// What else must hold once the case has run.
    enum Check: Sendable {
        /// `rejected.csv` of the run holds a row whose reason contains this.
        case rejected(String)
        /// stdout contains this.
        case stdout(String)
        /// stdout does not contain this.
        case stdoutLacks(String)
        /// The file (relative to the test folder) holds this text.
        case file(String, contains: String)
        /// Nothing has this name in the test folder.
        case absent(String)
        /// Every file under this folder (hidden ones included) has the bytes the case made.
        case untouched(String)
        /// `grandfather explain` answers for every customer of the run's snapshot.
        case explainsEveryCustomer
        /// The run's snapshot answers this query with these rows, each `|`-joined, one a line.
        case snapshot(String, is: String)
        /// The JSON log's `result` has an `as_of` at least a second after its `start` event:
        /// the default as-of was taken when the lock was, not when the run started.
        case asOfTakenAtTheLock
    }

    /// The input, as docs/Hardening.md's table names it.
    var input: String
    /// Where the case comes from: `14.1`…`14.6` and `33.1`…`33.12` (the hardening issues'
    /// findings) or `earlier`.
    var origin: String
    /// Makes the case's files in the test folder (which already holds `policy.json` and
    /// `good.csv`) and says how to run it.
    var make: @Sendable (CLI) throws -> Invocation
    var exit: Int32
    var stderr: Stderr
    var checks: [Check] = []
    /// A good run is made first, and `out/latest` must be byte-identical after the case.
    var keepsLatest: Bool

    var testDescription: String { "\(origin): \(input)" }
}

extension HostileCase {
    /// The standard audit's arguments before its inputs.
    static let auditArguments = [
        "audit", "--policy", "policy.json", "--as-of", "2024-06-01T00:00:00Z", "--out", "out",
    ]

    /// The policy every case's folder starts with: nothing is over the rejection threshold.
    static let policy = """
        {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "245"}},
         "grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1}
        """

    /// `exec "$GRANDFATHER"`, as nobody when the tests run as root (root reads any file).
    static var asUnprivileged: String {
        getuid() == 0
            ? "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$GRANDFATHER\"" : "exec \"$GRANDFATHER\""
    }

    /// Runs the case in a fresh folder and checks everything it promises.
    func run() throws {
        let cli = try CLI()
        try cli.write("policy.json", Self.policy)
        try cli.write("good.csv", "customer_id,platform\ngood,ios\n")
        var before: (target: String?, files: [String: Data])?
        if keepsLatest {
            let good = try cli.runBounded(Self.auditArguments + ["good.csv"])
            try #require(good.status == 0, "\(good.stderr)")
            before = (cli.latestTarget(), try cli.contents(of: "out/latest"))
        }
        let invocation = try make(cli)
        var made: [String: [String: Data]] = [:]
        for case .untouched(let name) in checks { made[name] = try cli.contents(of: name) }
        let result: CLI.BoundedResult
        switch invocation {
        case .audit(let inputs): result = try cli.runBounded(Self.auditArguments + inputs)
        case .arguments(let arguments): result = try cli.runBounded(arguments)
        case .script(let script): result = try cli.runBounded(script: script)
        }
        #expect(!result.timedOut, "the run hung and was killed")
        #expect(result.status == exit, "exit \(result.status), stderr: \(result.stderr)")
        switch stderr {
        case .empty:
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        case .line(let line):
            #expect(result.stderr == "grandfather: " + line + "\n")
        case .lineContaining(let text):
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(text), "\(result.stderr)")
        case .logContaining(let text):
            #expect(result.stderr.contains(text), "\(result.stderr)")
        }
        if let before {
            #expect(cli.latestTarget() == before.target, "latest moved")
            #expect(try cli.contents(of: "out/latest") == before.files, "latest's files changed")
        }
        for check in checks { try verify(check, cli, result) }
        for (name, files) in made { #expect(try cli.contents(of: name) == files, "\(name) changed") }
    }

    private func verify(_ check: Check, _ cli: CLI, _ result: CLI.BoundedResult) throws {
        switch check {
        case .rejected(let reason):
            let rejected = try String(contentsOfFile: cli.path("out/latest/rejected.csv"), encoding: .utf8)
            #expect(rejected.contains(reason), "\(rejected)")
        case .stdout(let text):
            #expect(result.stdout.contains(text), "\(result.stdout)")
        case .stdoutLacks(let text):
            #expect(!result.stdout.contains(text), "\(result.stdout)")
        case .file(let name, let text):
            let contents = try String(contentsOfFile: cli.path(name), encoding: .utf8)
            #expect(contents.contains(text), "\(name): \(contents)")
        case .absent(let name):
            #expect(!FileManager.default.fileExists(atPath: cli.path(name)), "\(name) exists")
        case .untouched:
            break  // compared with what the case made, in `run`
        case .asOfTakenAtTheLock:
            let events = result.stderr.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let start = events.first { $0["event"] as? String == "start" }?["time"] as? String
            let asOf = events.first { $0["event"] as? String == "result" }?["as_of"] as? String
            let parser = ISO8601DateFormatter()
            let started = try #require(start.flatMap(parser.date(from:)), "\(result.stderr)")
            let audited = try #require(asOf.flatMap(parser.date(from:)), "\(result.stderr)")
            #expect(audited.timeIntervalSince(started) >= 1, "start \(started), as of \(audited)")
        case .snapshot(let query, let expected):
            let rows = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite")).queue.read { db in
                try Row.fetchAll(db, sql: query).map { row in
                    row.databaseValues.map { value -> String in
                        switch value.storage {
                        case .null: ""
                        case .int64(let number): String(number)
                        case .double(let number): String(number)
                        case .string(let text): text
                        case .blob(let data): data.base64EncodedString()
                        }
                    }.joined(separator: "|")
                }
            }
            #expect(rows.joined(separator: "\n") == expected, "\(query)")
        case .explainsEveryCustomer:
            let ids = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite")).queue.read { db in
                try String.fetchAll(db, sql: "SELECT customer_id FROM customers")
            }
            #expect(!ids.isEmpty)
            for id in ids {
                let explained = try cli.run(["explain", id, "--snapshot", "out"])
                #expect(explained.status == 0, "explain \(id): \(explained.stderr)")
            }
        }
    }
}

// MARK: - Kinds of case

extension HostileCase {
    typealias Maker = @Sendable (CLI) throws -> Invocation

    /// Refused at once: exit 2, one line, and `latest` as it was.
    static func refused(_ input: String, _ origin: String, _ stderr: Stderr, make: @escaping Maker) -> HostileCase {
        HostileCase(input: input, origin: origin, make: make, exit: 2, stderr: stderr, keepsLatest: true)
    }

    /// Read: exit 0, nothing on stderr, and these checks (a rejected row's reason…).
    static func read(_ input: String, _ origin: String, _ checks: [Check], make: @escaping Maker) -> HostileCase {
        HostileCase(
            input: input, origin: origin, make: make, exit: 0, stderr: .empty, checks: checks, keepsLatest: false)
    }

    /// Writes `name` beside `good.csv` and audits both (or `name` alone).
    static func auditing(_ name: String, _ text: String, alone: Bool = false) -> Maker {
        { cli in
            try cli.write(name, text)
            return .audit(alone ? [name] : ["good.csv", name])
        }
    }

    /// Writes `name` as raw bytes beside `good.csv` and audits both.
    static func auditing(_ name: String, bytes: [UInt8]) -> Maker {
        { cli in
            try cli.write(name, bytes: bytes)
            return .audit(["good.csv", name])
        }
    }

    /// Audits `good.csv` under the policy at `path`.
    static func underPolicy(_ path: String) -> Invocation {
        .arguments(["audit", "--policy", path, "--out", "out", "good.csv"])
    }
}

// MARK: - docs/Hardening.md's table

extension HostileCase {
    /// The case as a row of docs/Hardening.md's table.
    var markdownRow: String {
        let shownStderr: String
        switch stderr {
        case .empty: shownStderr = "(none)"
        case .line(let line): shownStderr = "`grandfather: \(line)`"
        case .lineContaining(let text): shownStderr = "one line with `\(text)`"
        case .logContaining(let text): shownStderr = "a JSON log with `\(text)`"
        }
        let shownChecks = checks.map { check -> String in
            switch check {
            case .rejected(let reason): return "row rejected: `\(reason)`"
            case .stdout(let text): return "stdout has `\(Self.shown(text))`"
            case .stdoutLacks(let text): return "stdout lacks `\(Self.shown(text))`"
            case .file(let name, let text): return "`\(name)` has `\(Self.shown(text))`"
            case .absent(let name): return "no `\(name)` made"
            case .untouched(let name): return "every byte under `\(name)` as it was"
            case .explainsEveryCustomer: return "`explain` answers for every customer"
            case .snapshot(let query, let expected): return "`\(query)` gives `\(Self.shown(expected))`"
            case .asOfTakenAtTheLock: return "the default as-of is when the lock was taken"
            }
        }
        let cells = [
            origin, input, String(exit), shownStderr, shownChecks.isEmpty ? "" : shownChecks.joined(separator: "; "),
            keepsLatest ? "byte-identical" : "",
        ]
        return "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }

    /// `text` with its line breaks written `\r` and `\n`, so that a row stays one line.
    static func shown(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The whole table, as docs/Hardening.md holds it between its markers.
    static func markdownTable(_ cases: [HostileCase]) -> String {
        var lines = [
            "| from | input | exit | stderr | and | `latest` |",
            "| --- | --- | ---: | --- | --- | --- |",
        ]
        lines += cases.map(\.markdownRow)
        return lines.joined(separator: "\n") + "\n"
    }
}
