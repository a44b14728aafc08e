import GrandfatherEngine

/// The table names `grandfather sql` is given (`--customers`, `--transactions`,
/// `--product-entitlements`, `--service-entitlements`, and `--prefix` before the tables it
/// creates) go into the script as SQL, not as literals: so each must be a name every dialect
/// reads unquoted, or a newline in `--prefix` would end the header comment and the rest of the
/// option would run as a statement. And no table the script creates may be one it reads, or
/// `--prefix ""` would replace `customers` with its own result (docs/Warehouse.md, "When one machine is
/// not enough").
enum SQLTableNames {
    /// A table name is at most this many dot-separated parts: catalog (BigQuery: project),
    /// schema (dataset), table.
    static let maximumParts = 3

    /// Refuses any name of `options` that is not a plain table name in its dialect, and a
    /// prefix that would make a created table one of the tables read.
    static func check(_ options: ClassificationScript.Options) throws(GrandfatherError) {
        let inputs = inputs(options)
        for (option, name) in inputs {
            if let problem = problem(in: name, options.dialect) {
                throw refusal(option, name, problem, options.dialect)
            }
        }
        let sql = SQLContext(dialect: options.dialect, prefix: options.prefix, tables: SQLContext.InputTables())
        let created =
            ClassificationScript.resultTables.map(sql.table) + ClassificationScript.workTables.map(sql.workTable)
        for name in created {
            if let problem = problem(in: name, options.dialect) {
                throw refusal("--prefix", options.prefix, problem, options.dialect)
            }
            // Compared by the last part, as unquoted names are told apart in every dialect:
            // `main.customers` and `customers` may be one table.
            let table = lastPart(name).lowercased()
            if let (option, input) = inputs.first(where: { lastPart($0.1).lowercased() == table }) {
                throw .usage(
                    "--prefix \(String(reflecting: options.prefix)): the script would create \(name), which is the \(option) table \(input); a table the script creates must never replace one it reads"
                )
            }
        }
    }

    /// Refuses an input table named without a schema as one of the script's own steps
    /// (`--customers everyone`): inside the WITH list holding that step the name would read
    /// the step, not the table.
    static func checkUnshadowed(_ options: ClassificationScript.Options, steps: Set<String>) throws(GrandfatherError) {
        for (option, name) in inputs(options) where steps.contains(name.lowercased()) {
            throw .usage(
                "\(option) \(String(reflecting: name)): the script names a step of its own \(name.lowercased()); name the table with its schema, or rename it"
            )
        }
    }

    /// The input tables of `options`, each with the option that names it.
    private static func inputs(_ options: ClassificationScript.Options) -> [(String, String)] {
        [
            ("--customers", options.customersTable), ("--transactions", options.transactionsTable),
            ("--product-entitlements", options.productEntitlementsTable),
            ("--service-entitlements", options.serviceEntitlementsTable),
        ]
    }

    /// The last dot-separated part of `name`: the table, without its catalog or schema.
    static func lastPart(_ name: String) -> String {
        String(name.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
    }

    /// Why `name` is not a table name `dialect` reads unquoted, or `nil` when it is one: ASCII
    /// letters, digits and underscores, not starting with a digit, in at most three
    /// dot-separated parts; a BigQuery project (the first of three parts) may hold hyphens.
    static func problem(in name: String, _ dialect: WarehouseDialect) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= maximumParts else { return "more than \(maximumParts) dot-separated parts" }
        for (index, part) in parts.enumerated() {
            guard let first = part.unicodeScalars.first else { return name.isEmpty ? "empty" : "an empty part" }
            let project = dialect == .bigquery && index == 0 && parts.count == maximumParts
            for scalar in part.unicodeScalars where !isWordScalar(scalar) && !(project && scalar == "-") {
                return "\(String(reflecting: String(scalar))) is not an ASCII letter, digit or underscore"
            }
            if ("0"..."9").contains(first) { return "\(String(reflecting: String(part))) starts with a digit" }
        }
        return nil
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    private static func refusal(
        _ option: String, _ value: String, _ problem: String, _ dialect: WarehouseDialect
    ) -> GrandfatherError {
        .usage(
            "\(option) \(String(reflecting: value)): not a table name \(dialect.rawValue) reads unquoted: \(problem) (docs/Warehouse.md, \"When one machine is not enough\")"
        )
    }
}
