import Foundation
import GrandfatherEngine

/// `grandfather audit --results DIR`: a run made from a warehouse's answers. `DIR` is a
/// `normalize` folder that also holds the three result tables `scripts/warehouse-run` exports
/// (`gf_customers.csv`, `gf_customer_flags.csv`, `gf_entitlements.csv`; header row, any column
/// order) and, optionally, `engine.json`.
///
/// The records are read back from the folder (`WarehouseSource`), for the details the result
/// tables do not carry (the granting transactions' products, revenue at stake, what decided,
/// which `explain` reads), and the inputs' accounting and rejected rows are the folder's, as
/// `normalize` counted them. Every customer's class, flags and grants must be the ones the
/// records give: a report that put the warehouse's class beside details that say otherwise
/// would mislead, so a difference stops the run before anything is written, naming the
/// customer and both answers (docs/Warehouse.md, "When one machine is not enough").
public enum WarehouseResults {
    /// The result tables, and the columns each must have.
    static let tables: [(file: String, columns: [String])] = [
        (
            "gf_customers.csv",
            ["customer_id", "platform", "original_app_version", "original_purchase_date", "environment", "class"]
        ),
        ("gf_customer_flags.csv", ["customer_id", "flag"]),
        ("gf_entitlements.csv", ["customer_id", "entitlement", "source", "transaction_id", "expires_date"]),
    ]

    /// How many differing customers the error names.
    static let namedDifferences = 5

    /// The folder's files the run reads its records from.
    public static func inputs(in folder: String) throws(GrandfatherError) -> [String] {
        for name in ["manifest.json"] + tables.map(\.file) where !FileSystem.exists(FileSystem.join(folder, name)) {
            throw .usage("--results \(folder): no \(name) (a normalize folder with the warehouse's result tables)")
        }
        var inputs: [String] = []
        for table in WarehouseLayout.inputTables {
            let files = table.files(in: folder)
            if files.isEmpty, table.inParts {
                throw .usage("--results \(folder): no \(table.partPattern) (a normalize folder's transactions)")
            }
            // A missing table of one file is named by the run that cannot open it.
            inputs += files.isEmpty ? [FileSystem.join(folder, table.fileName)] : files
        }
        return inputs
    }

    /// Makes `audit`, read from the folder's records, the run the folder describes: checked
    /// against the warehouse's answers, with the folder's accounting and engine.
    static func apply(to audit: inout Audit, folder: String) throws(GrandfatherError) {
        let manifest = try readManifest(folder)
        guard manifest.policySHA256 == audit.policy.digest else {
            throw .usage(
                "--results \(folder) was normalized under the policy with sha256 \(manifest.policySHA256.prefix(12)), not this one (\(audit.policy.digest.prefix(12)))"
            )
        }
        guard manifest.asOf == audit.asOf.iso8601 else {
            throw .usage("--results \(folder) was normalized as of \(manifest.asOf), not \(audit.asOf.iso8601)")
        }
        let warehouse = try answers(folder)
        let differences = WarehouseAnswers.differences(WarehouseAnswers.of(audit), warehouse)
        if !differences.isEmpty {
            let named = differences.prefix(namedDifferences).map { difference in
                "customer '\(Excerpt.of(difference.id))': the records say \(difference.left.map(\.description) ?? "nothing"), the warehouse says \(difference.right.map(\.description) ?? "nothing")"
            }
            throw .input(
                file: FileSystem.join(folder, "gf_customers.csv"), line: nil,
                message: "the warehouse's results differ from the records for \(differences.count) customer(s): "
                    + named.joined(separator: "; "))
        }
        let rejections = try rejections(folder)
        let transactions = Set(WarehouseLayout.transactions.files(in: folder))
        try ResultsAccounting.check(
            manifest.inputs, rejections: rejections,
            transactionRows: audit.inputs.filter { transactions.contains($0.path) }.reduce(0) { $0 + $1.rowsRead },
            manifest: FileSystem.join(folder, "manifest.json"))
        audit.inputs = manifest.inputs
        audit.appStore = manifest.appStore
        // The reports set the stores' copies beside the customers as `audit` did.
        if let record = manifest.salesPopulation {
            audit.population = try record.population(manifest: FileSystem.join(folder, "manifest.json"))
            audit.paidCopies = PopulationReconciliation(
                audit.population, sales: audit.policy.sales, customers: audit.customers)
        }
        audit.rejections = rejections
        audit.engine = try engine(folder)
    }

    /// A small file's bytes (a manifest, engine.json), whole, if no larger than `limit`.
    private static func small(_ path: String, limit: Int = 64 << 20) throws(GrandfatherError) -> [UInt8] {
        let source = try InputFile.open(path)
        guard source.size <= limit else {
            let size = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
            throw .input(file: path, line: nil, message: "over \(size)")
        }
        return try InputFile.readAll(source)
    }

    /// The most bytes `engine.json`, and each value the runs table keeps of it, may have: it
    /// names an engine, and is carried into every later snapshot's `runs` table.
    static let engineLimits = (file: 64 << 10, value: 256)

    private static func readManifest(_ folder: String) throws(GrandfatherError) -> NormalizedFolder.Manifest {
        let path = FileSystem.join(folder, "manifest.json")
        let bytes = try small(path)
        do {
            return try JSONDecoder().decode(NormalizedFolder.Manifest.self, from: Data(bytes))
        } catch {
            throw .input(file: path, line: nil, message: "not a normalize manifest: \(error)")
        }
    }

    /// The three tables' answers; a table lacking a column, or a row that cannot be read,
    /// stops the run.
    private static func answers(_ folder: String) throws(GrandfatherError) -> [String: WarehouseAnswer] {
        var read: [[[String?]]] = []
        for (file, columns) in tables {
            let path = FileSystem.join(folder, file)
            let source = try InputFile.open(path)
            let header = try Records.header(of: source) ?? []
            try CSVHeaderRule.checkEachNamedOnce(header, path: path)
            if let missing = columns.first(where: { !header.contains($0) }) {
                throw .input(file: path, line: 1, message: "no column \(missing)")
            }
            var rows: [[String?]] = []
            let table = try WarehouseTable.read(path, kind: .customers, columns: columns) { _, values in
                rows.append(values)
                return nil
            }
            if let first = table.rejections.first {
                throw .input(file: path, line: first.line, message: first.reason)
            }
            read.append(rows)
        }
        return WarehouseAnswers.of(customers: read[0], flags: read[1], entitlements: read[2])
    }

    private static func rejections(_ folder: String) throws(GrandfatherError) -> [Rejection] {
        var rejections: [Rejection] = []
        let path = FileSystem.join(folder, WarehouseLayout.rejected.fileName)
        let table = try WarehouseTable.read(
            path, kind: .customers, columns: WarehouseLayout.rejected.columns.map(\.name)
        ) { _, row in
            guard let file = row[0], let line = row[1].flatMap({ Int($0) }), let reason = row[4] else {
                return RowProblem(field: nil, column: nil, reason: "not a rejected row")
            }
            rejections.append(
                Rejection(file: file, line: line, column: row[2].flatMap { Int($0) }, field: row[3], reason: reason))
            return nil
        }
        if let first = table.rejections.first { throw .input(file: path, line: first.line, message: first.reason) }
        return rejections
    }

    /// `engine.json` as the runs table keeps it; an engine that is unknown without one.
    private static func engine(_ folder: String) throws(GrandfatherError) -> String {
        let path = FileSystem.join(folder, "engine.json")
        guard FileSystem.exists(path) else { return Audit.engineJSON(["engine": "unknown"]) }
        let bytes = try small(path, limit: engineLimits.file)
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .input(file: path, line: nil, message: "not a JSON object")
        }
        var fields: [String: String] = [:]
        for key in ["engine", "dialect", "version"] {
            guard let value = object[key] as? String else { continue }
            guard value.utf8.count <= engineLimits.value else {
                throw .input(file: path, line: nil, message: "\(key) is over \(engineLimits.value) bytes")
            }
            fields[key] = value
        }
        if fields["engine"] == nil { fields["engine"] = "unknown" }
        return Audit.engineJSON(fields)
    }
}
