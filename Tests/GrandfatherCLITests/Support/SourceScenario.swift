import Foundation
import GRDB
import Testing

/// One source's sample audited as it is and as drawn variants of its records: what
/// `SourceOrderPropertyTests` runs for each source.
struct SourceScenario {
    /// The source, for messages.
    let name: String
    /// The policy, under `sample-data/`.
    let policy: String
    /// The cutover's basis, when the test needs another than the policy's.
    var basis: String?
    let asOf: String
    /// Options before the inputs (`--trusted-root`).
    var options: [String] = []
    /// Files the options name, under `sample-data/`, copied under their own names.
    var support: [String] = []
    /// Inputs of other sources given unchanged to every run, under `sample-data/`.
    var context: [String] = []
    /// The source's own files, as records.
    let pools: [RecordPool]

    /// The policy's text; any share of rejected rows is allowed, since a repeated rejected row
    /// is rejected again and the share is accounting, which these tests do not compare.
    func policyText() throws -> String {
        var text = try SampleFiles.text(policy)
        text = text.replacing(/"max_rejected_fraction": [0-9.]+/, with: "\"max_rejected_fraction\": 1")
        if let basis { text = text.replacing(/"basis": "[a-z]+"/, with: "\"basis\": \"\(basis)\"") }
        #expect(text.contains("\"max_rejected_fraction\": 1"))
        #expect(basis.map { text.contains("\"basis\": \"\($0)\"") } ?? true)
        return text
    }

    static func baseName(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    /// The sample's own files, in the order the sample's scripts give them, each pool's extra
    /// records after its files as one more file.
    func auditOriginal() throws -> AuditOutcome? {
        var files: [DrawnInputs.File] = []
        for pool in pools {
            for name in pool.originals {
                files.append(
                    DrawnInputs.File(name: Self.baseName(name), bytes: try Data(contentsOf: SampleFiles.url(name))))
            }
            if let form = pool.forms.first, !pool.extras.isEmpty {
                let name = "extra-\(pool.stem).\(form.fileExtension)"
                files.append(DrawnInputs.File(name: name, bytes: Data(form.write(pool.extras).utf8)))
            }
        }
        let arguments = context.map(Self.baseName) + files.map(\.name)
        return try audit(files: files, arguments: arguments, describing: "the sample's files").0
    }

    /// A run over `files` (written into a fresh folder beside the context and support files).
    func audit(files: [DrawnInputs.File], arguments: [String], describing: String) throws -> (AuditOutcome?, CLI) {
        let cli = try CLI()
        try cli.write("policy.json", try policyText())
        for name in support + context { try cli.copy(SampleFiles.url(name), as: Self.baseName(name)) }
        for file in files { try file.bytes.write(to: cli.folder.appendingPathComponent(file.name)) }
        let result = try cli.run(
            ["audit", "--policy", "policy.json", "--as-of", asOf, "--out", "out"] + options + arguments)
        guard result.status == 0 else {
            Issue.record("\(name), \(describing): exit \(result.status): \(result.stderr) (in \(cli.folder.path))")
            return (nil, cli)
        }
        return (try AuditOutcome(cli), cli)
    }
}

/// What a run says of its customers, with what names the run's files left out: `customers.csv`,
/// every snapshot table but `runs` (which describes the run), `rejected_rows` without its
/// file and line and each distinct row once (a repeated rejected row is rejected again, at its
/// own place), and, when sales reports were read, `summary.json`'s paid copies per store.
struct AuditOutcome: Equatable {
    var customers: String
    var tables: [String: [String]] = [:]
    var salesStores: String?

    init(_ cli: CLI) throws {
        customers = try String(contentsOfFile: cli.path("out/latest/customers.csv"), encoding: .utf8)
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        for table in try dump.tables() where table != "runs" {
            tables[table] =
                table == "rejected_rows"
                ? try dump.rows(query: "SELECT DISTINCT \"column\", field, reason FROM rejected_rows")
                : try dump.rows(table)
        }
        let summary = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/summary.json")))
        if let object = try JSONSerialization.jsonObject(with: summary) as? [String: Any],
            let sales = object["sales_population"] as? [String: Any], let stores = sales["stores"]
        {
            let bytes = try JSONSerialization.data(withJSONObject: stores, options: [.sortedKeys, .prettyPrinted])
            salesStores = String(decoding: bytes, as: UTF8.self)
        }
    }

    /// What differs, as the lines only one side has.
    func differences(from other: AuditOutcome) -> String {
        var text = ""
        func compare(_ what: String, _ mine: [String], _ theirs: [String]) {
            let only = mine.filter { !theirs.contains($0) }
            let otherOnly = theirs.filter { !mine.contains($0) }
            if mine == theirs { return }
            text += "\n\(what):"
            for line in only { text += "\n  - \(line)" }
            for line in otherOnly { text += "\n  + \(line)" }
            if only.isEmpty && otherOnly.isEmpty { text += " the same lines, another order or count" }
        }
        compare("customers.csv", lines(customers), lines(other.customers))
        for table in Set(tables.keys).union(other.tables.keys).sorted() {
            compare(table, tables[table] ?? [], other.tables[table] ?? [])
        }
        compare("sales_population.stores", lines(salesStores ?? ""), lines(other.salesStores ?? ""))
        return text
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }
}

extension SnapshotDump {
    /// Every row a query returns, in a stable order, as text lines.
    func rows(query: String) throws -> [String] {
        try queue.read { db in
            try Row.fetchAll(db, sql: query).map { row in
                row.databaseValues.map { $0.isNull ? "NULL" : $0.description }.joined(separator: "|")
            }.sorted()
        }
    }
}
