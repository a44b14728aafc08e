import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/explore` (issue 52): the sample's snapshot served by Datasette, checked through
/// its descriptions (the schema's documentation, column for column) and in headless
/// Chromium (a canned query's rows, a faceted table's counts).
@Suite(.serialized) struct ExploreTests {
    static let script = GoldenTests.repository.appendingPathComponent("scripts/explore").path

    /// Runs `scripts/explore` with `arguments` to its end; returns stdout.
    private func explore(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try Subprocess.run(Self.script, arguments)
    }

    /// The sample's audit, run twice so that the second has a previous run to compare with.
    private func sampleRun(_ cli: CLI) throws -> String {
        var arguments = try SampleData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let asOf = try #require(arguments.firstIndex(of: "--as-of"))
        arguments[asOf + 1] = "2026-12-21T00:00:00Z"
        #expect(try cli.run(arguments).status == 0)
        return cli.path("out/latest")
    }

    @Test func helpSaysHowToStopIt() throws {
        let help = try explore(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Ctrl-C"), "\(help.stdout)")
        #expect(help.stdout.contains("127.0.0.1"))
    }

    /// Every table and column of a real snapshot has a description, and every described one
    /// exists: the documentation cannot fall behind the schema, nor describe what is gone.
    @Test func everyTableAndColumnIsDescribed() throws {
        let cli = try CLI()
        let run = try sampleRun(cli)
        let printed = try explore(["--metadata"])
        #expect(printed.status == 0)
        let metadata = try #require(
            try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        let databases = try #require(metadata["databases"] as? [String: Any])
        let database = try #require(databases["snapshot"] as? [String: Any])
        let described = try #require(database["tables"] as? [String: [String: Any]])
        let dump = try SnapshotDump(path: run + "/snapshot.sqlite")
        let tables = try dump.tables()
        #expect(tables.count >= 10)
        #expect(Set(described.keys) == Set(tables), "documented tables against the snapshot's")
        for table in tables {
            let entry = try #require(described[table], "\(table) is not described")
            #expect(((entry["description"] as? String) ?? "").count > 10, "\(table)'s description")
            let columns = try #require(entry["columns"] as? [String: String])
            let actual = try #require(
                try dump.text("SELECT group_concat(name, ',') FROM pragma_table_info('\(table)')"))
            #expect(Set(columns.keys) == Set(actual.split(separator: ",").map(String.init)), "\(table)'s columns")
            for (column, text) in columns { #expect(text.count > 3, "\(table).\(column) is described") }
        }
        let facets = (described["customers"]?["facets"] as? [String]) ?? []
        #expect(facets.contains("class") && facets.contains("platform"))
        #expect((described["customer_flags"]?["facets"] as? [String]) == ["flag"])
        let queries = try #require(database["queries"] as? [String: Any])
        #expect(Set(queries.keys) == ["paywall", "review", "changes", "customer"])
    }

    @Test func servesTheSnapshotToABrowser() throws {
        let cli = try CLI()
        let run = try sampleRun(cli)
        let port = try Self.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.script)
        server.arguments = [run, "--port", String(port)]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { Self.stop(server) }
        let base = "http://127.0.0.1:\(port)/snapshot"
        try Self.waitUntilServing(base, server: server)

        // The run's own answers, from customers.csv.
        let rows = try String(contentsOfFile: run + "/customers.csv", encoding: .utf8).split(separator: "\n")
            .dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let catalog = try SnapshotDump(path: run + "/snapshot.sqlite")
            .text("SELECT group_concat(flag, ',') FROM flag_catalog WHERE severity = 'review'")
        let reviewFlags = Set((catalog ?? "").split(separator: ",").map(String.init))
        let flagged = rows.filter { !Set($0[2].split(separator: ";").map(String.init)).isDisjoint(with: reviewFlags) }
            .map { $0[0] }
        #expect(!flagged.isEmpty)

        // A canned query: the customers flagged for review, each once, in id order.
        let review = try Chromium.run(["--dump-dom"], url: base + "/review")
        let cells = Self.cells(review, column: "customer_id")
        #expect(cells == flagged.sorted(), "the review query's rows")

        // A faceted table: the customers' classes, counted as the run counted them.
        let table = try Chromium.run(["--dump-dom"], url: base + "/customers")
        let facet = try #require(
            table.components(separatedBy: "id=\"facet-class\"").dropFirst().first?
                .components(separatedBy: "</ul>").first, "the class facet")
        for customerClass in ["grandfathered", "subscriber", "lapsed", "new"] {
            let count = rows.filter { $0[1] == customerClass }.count
            #expect(facet.contains(">\(customerClass)</a> \(count)</li>"), "\(customerClass) \(count)")
        }

        // One customer: its class, flags and entitlements.
        let one = try Chromium.run(
            ["--dump-dom"], url: base + "/customer?customer_id=c10-kai-bought-just-before-cutover")
        #expect(Self.cells(one, column: "part") == ["class", "flag", "entitlement"])
        #expect(Self.cells(one, column: "name") == ["grandfathered", "bought_just_before_cutover", "premium"])
    }

    /// Stops the server as `--help` says a user may, with SIGTERM; a server that outlives it
    /// ten seconds fails the test and is killed, so that a test never hangs on it.
    private static func stop(_ server: Process) {
        server.terminate()
        let deadline = Date().addingTimeInterval(10)
        while server.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if server.isRunning {
            Issue.record("scripts/explore outlived SIGTERM by ten seconds")
            kill(server.processIdentifier, SIGKILL)
        }
        server.waitUntilExit()
    }

    /// The text of every `<td class="col-NAME">` cell of a Datasette page, in order.
    private static func cells(_ page: String, column: String) -> [String] {
        page.components(separatedBy: "<td class=\"col-\(column)").dropFirst().compactMap {
            $0.split(separator: ">", maxSplits: 1).last?.split(separator: "<", maxSplits: 1).first
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
    }

    /// Waits up to two minutes (the first call installs Datasette) for the server to answer.
    private static func waitUntilServing(_ url: String, server: Process) throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            try #require(server.isRunning, "scripts/explore exited with \(server.terminationStatus)")
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            probe.arguments = ["python3", "-c", "import urllib.request; urllib.request.urlopen('\(url).json')"]
            probe.standardError = FileHandle.nullDevice
            try probe.run()
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return }
            Thread.sleep(forTimeInterval: 0.5)
        }
        Issue.record("scripts/explore did not answer at \(url) within two minutes")
    }

    /// A port on 127.0.0.1 no one listens on: the kernel's choice for port 0.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
