import GrandfatherEngine

/// `grandfather sql --load DIR`: the statements that create the input tables from a
/// `normalize` folder's CSV files, typed as the layout says, for the two engines that run here.
/// A malformed file fails the load (DuckDB's strict reader, Spark's FAILFAST), never a row
/// quietly read as NULL; a folder without the layout's files is refused before any SQL is
/// written. Each table is a view over its file, as Spark's are: read where a statement needs it,
/// only the columns it needs, never copied whole into the database (at a million customers the
/// copy of `transactions.csv` took 12 s of the script's 31). DuckDB's sniffer stays on although
/// every column and the dialect are given: without it the reader has no estimate of the rows,
/// takes a file of millions for one of 42, and builds its joins' hash tables from the file.
/// Both engines read a path as a glob pattern, so each path is escaped for its
/// engine (`globEscaped`): a folder named `g[ab]` is read, never its sibling `ga`.
enum WarehouseLoad {
    /// The tables the classification reads, in `sql`'s names.
    static func statements(folder: String, _ sql: SQLContext) throws(GrandfatherError) -> [String] {
        let tables: [(WarehouseLayout.Table, String)] = [
            (WarehouseLayout.customers, sql.tables.customers),
            (WarehouseLayout.transactions, sql.tables.transactions),
            (WarehouseLayout.productEntitlements, sql.tables.productEntitlements),
            (WarehouseLayout.serviceEntitlements, sql.tables.serviceEntitlements),
        ]
        guard sql.dialect == .duckdb || sql.dialect == .spark else {
            throw .usage(
                "--load is for duckdb and spark; load the normalize folder into \(sql.dialect.rawValue) with its own tools (docs/Warehouse.md, \"When one machine is not enough\")"
            )
        }
        guard FileSystem.isDirectory(folder) else {
            throw .usage("--load \(String(reflecting: folder)): no such folder")
        }
        for (table, _) in tables where !FileSystem.isRegularFile(FileSystem.join(folder, table.fileName)) {
            throw .usage(
                "--load \(String(reflecting: folder)): no \(table.fileName) in it; give a folder grandfather normalize wrote"
            )
        }
        return tables.map { (table, name) in
            let path = globEscaped(FileSystem.join(folder, table.fileName), sql.dialect)
            return sql.dialect == .duckdb
                ? duckDB(table, name: name, path: path, sql) : spark(table, name: name, path: path, sql)
        }
    }

    /// `path` as a pattern that matches only itself. DuckDB's reader takes `*`, `?` and `[` as
    /// a glob and has no escape character, but a one-character class is literal (`[[]`, `[*]`,
    /// `[?]`); Spark's (Hadoop's) glob also takes `{}` and `]`, and a backslash escapes any of
    /// them and itself.
    static func globEscaped(_ path: String, _ dialect: WarehouseDialect) -> String {
        // By scalar: a `[` a combining mark follows is still a `[` to the engines.
        var out = String.UnicodeScalarView()
        for scalar in path.unicodeScalars {
            switch (dialect, scalar) {
            case (.duckdb, "*"), (.duckdb, "?"), (.duckdb, "["): out += ["[", scalar, "]"]
            case (.spark, "*"), (.spark, "?"), (.spark, "["), (.spark, "]"), (.spark, "{"), (.spark, "}"),
                (.spark, "\\"):
                out += ["\\", scalar]
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private static func duckDB(_ table: WarehouseLayout.Table, name: String, path: String, _ sql: SQLContext) -> String
    {
        let columns = table.columns.map { "\(sql.literal($0.name)): \(sql.literal(sql.type($0.type)))" }
        return """
            CREATE OR REPLACE VIEW \(name) AS SELECT * FROM read_csv(
                \(sql.literal(path)), header = true, delim = ',', quote = '"', escape = '"', nullstr = '',
                auto_detect = true, strict_mode = true, timestampformat = '%Y-%m-%dT%H:%M:%S.%fZ',
                columns = {\(columns.joined(separator: ", "))});
            """
    }

    private static func spark(_ table: WarehouseLayout.Table, name: String, path: String, _ sql: SQLContext) -> String {
        let columns = table.columns.map { "\($0.name) \(sql.type($0.type))" }
        return """
            CREATE OR REPLACE TEMPORARY VIEW \(name) (\(columns.joined(separator: ", ")))
            USING csv OPTIONS (
                path \(sql.literal(path)), header 'true', multiLine 'true', quote '"', escape '"', mode 'FAILFAST',
                timestampFormat \(sql.literal("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")), nullValue '',
                ignoreLeadingWhiteSpace 'false', ignoreTrailingWhiteSpace 'false');
            """
    }
}
