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
/// DuckDB reads through 4 MiB buffers, not its default 32 MiB (16 times the longest line it
/// allows, 2 MB, which still fits): over the transactions' parts the default held about 430
/// MiB more in every pass (1M customers: 1,311 MiB peak against 859 MiB, at the same speed).
/// Both engines read a path as a glob pattern, so each folder is escaped for its engine
/// (`globEscaped`): a folder named `g[ab]` is read, never its sibling `ga`; the transactions'
/// parts are then one pattern, `transactions-*.csv`.
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
        return try tables.map { (table, name) throws(GrandfatherError) in
            let files = table.files(in: folder)
            guard let first = files.first else {
                let wanted = table.inParts ? "\(table.partPattern) nor \(table.fileName)" : table.fileName
                throw .usage(
                    "--load \(String(reflecting: folder)): no \(wanted) in it; give a folder grandfather normalize wrote"
                )
            }
            let source: String
            if first == FileSystem.join(folder, table.fileName) {
                // A table of one file, or an older folder's one transactions file: by its name.
                source = sql.literal(globEscaped(first, sql.dialect))
            } else if sql.dialect == .duckdb, folder.contains("\\") {
                // DuckDB's glob splits a path at a backslash as at a slash, so no pattern under
                // such a folder matches anything: the parts there now, each by its name.
                source = "[" + files.map { sql.literal(globEscaped($0, sql.dialect)) }.joined(separator: ", ") + "]"
            } else {
                // The parts through the pattern that matches them all, however many a later
                // normalize writes.
                source = sql.literal(globEscaped(FileSystem.join(folder, ""), sql.dialect) + table.partPattern)
            }
            return sql.dialect == .duckdb
                ? duckDB(table, name: name, source: source, sql) : spark(table, name: name, path: source, sql)
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

    static let duckDBBufferSize = 4 << 20

    /// `source`: the file's path or the parts' pattern as a string literal, or a list of them.
    private static func duckDB(
        _ table: WarehouseLayout.Table, name: String, source: String, _ sql: SQLContext
    ) -> String {
        let columns = table.columns.map { "\(sql.literal($0.name)): \(sql.literal(sql.type($0.type)))" }
        return """
            CREATE OR REPLACE VIEW \(name) AS SELECT * FROM read_csv(
                \(source), header = true, delim = ',', quote = '"', escape = '"', nullstr = '',
                auto_detect = true, strict_mode = true, timestampformat = '%Y-%m-%dT%H:%M:%S.%fZ',
                buffer_size = \(duckDBBufferSize),
                columns = {\(columns.joined(separator: ", "))});
            """
    }

    /// `path`: the file's path or the parts' pattern, as a string literal.
    private static func spark(_ table: WarehouseLayout.Table, name: String, path: String, _ sql: SQLContext) -> String {
        let columns = table.columns.map { "\($0.name) \(sql.type($0.type))" }
        return """
            CREATE OR REPLACE TEMPORARY VIEW \(name) (\(columns.joined(separator: ", ")))
            USING csv OPTIONS (
                path \(path), header 'true', multiLine 'true', quote '"', escape '"', mode 'FAILFAST',
                timestampFormat \(sql.literal("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")), nullValue '',
                ignoreLeadingWhiteSpace 'false', ignoreTrailingWhiteSpace 'false');
            """
    }
}
