import GrandfatherEngine

/// What every rule's SQL is written against: the dialect's spelling of literals and the few
/// functions that differ between engines, and the names of the tables. The rules themselves
/// use only what all four dialects share (CASE, EXISTS, window functions, LIKE, TRANSLATE),
/// and a correlated EXISTS only in a WHERE clause, outside any OR: the one place Snowflake
/// reads it. `warehouse/check_dialect.py` holds every script to its dialect's documented
/// functions (docs/Warehouse.md, "When one machine is not enough").
struct SQLContext: Sendable {
    let dialect: WarehouseDialect
    /// Put before every table the script creates (`gf_`; may name a schema, `audit.gf_`).
    let prefix: String
    let tables: InputTables

    /// The input tables, as the warehouse names them.
    struct InputTables: Sendable {
        var customers = WarehouseLayout.customers.name
        var transactions = WarehouseLayout.transactions.name
        var productEntitlements = WarehouseLayout.productEntitlements.name
        var serviceEntitlements = WarehouseLayout.serviceEntitlements.name
    }

    /// A result table the script creates.
    func table(_ name: String) -> String { prefix + name }

    /// A table the script creates for its own later statements: of the session, so named
    /// without the schema a prefix may name.
    func workTable(_ name: String) -> String {
        String(prefix.split(separator: ".", omittingEmptySubsequences: false).last ?? "") + name
    }

    /// The dialect's name for a layout type.
    func type(_ type: WarehouseLayout.ColumnType) -> String {
        WarehouseDialect.typeName(type, in: dialect)
    }

    /// A NULL of `type`, which every engine can union with a typed column.
    func null(_ type: WarehouseLayout.ColumnType) -> String {
        "CAST(NULL AS \(self.type(type)))"
    }

    /// Literal rows a VALUES list (BigQuery: an array of STRUCTs) holds at most: Snowflake
    /// reads at most 16,384 in one; more are several lists joined by UNION ALL.
    static let rowsPerList = 10_000

    /// A table of literal rows with `columns`, empty when `rows` is (no dialect reads an empty
    /// VALUES list, and BigQuery reads none at all: it unnests an array of STRUCTs). One list,
    /// not a SELECT per row under UNION ALL, which engines plan in time growing faster than
    /// the rows (a policy of 20,000 products took DuckDB over a minute).
    func rows(_ columns: [(String, WarehouseLayout.ColumnType)], _ rows: [[String]]) -> String {
        guard !rows.isEmpty else {
            let nulls = columns.map { "\(null($0.1)) AS \($0.0)" }.joined(separator: ", ")
            return "SELECT \(nulls) FROM (SELECT 1 AS one) AS nothing WHERE 1 = 0"
        }
        let names = columns.map(\.0).joined(separator: ", ")
        return stride(from: 0, to: rows.count, by: Self.rowsPerList).map { start in
            let list = rows[start..<min(start + Self.rowsPerList, rows.count)]
            guard dialect != .bigquery else {
                let structs = list.map { row in
                    "STRUCT(" + zip(row, columns).map { "\($0) AS \($1.0)" }.joined(separator: ", ") + ")"
                }
                return "SELECT * FROM UNNEST([\n" + structs.joined(separator: ",\n") + "\n])"
            }
            return "SELECT * FROM (VALUES\n"
                + list.map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: ",\n")
                + "\n) AS literal_rows (\(names))"
        }.joined(separator: "\nUNION ALL ")
    }

    /// The set operator that keeps each row once: BigQuery requires its DISTINCT, which the
    /// others take as their default.
    var unionDistinct: String { dialect == .bigquery ? "UNION DISTINCT" : "UNION" }

    /// A string literal. DuckDB reads backslashes as text; the others read them as escapes.
    func literal(_ text: String) -> String {
        guard dialect != .duckdb else { return duckDBLiteral(text) }
        var out = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }

    /// DuckDB's plain literal, quotes doubled; one that holds a line break is an E'' escape
    /// string instead (backslashes doubled), so that no literal spans lines: the script indents
    /// its steps line by line, which would change the text, and `warehouse/run.py` splits
    /// statements at line ends.
    private func duckDBLiteral(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else {
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
        var out = "E'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "''"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }

    func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    /// An instant as a UTC timestamp literal, to the microsecond.
    func literal(_ instant: Instant) -> String {
        var text = Instant(microseconds: instant.microseconds).iso8601
        // `2024-03-01T00:00:00Z` → `2024-03-01 00:00:00.000000`.
        text.removeLast()
        text = text.replacingOccurrences(of: "T", with: " ")
        if !text.contains(".") { text += ".000000" }
        while text.count < 26 { text += "0" }
        switch dialect {
        case .duckdb, .spark: return "TIMESTAMP '\(text)'"
        case .bigquery: return "TIMESTAMP '\(text)+00'"
        case .snowflake: return "CAST('\(text)' AS TIMESTAMP_NTZ)"
        }
    }

    /// `timestamp` plus `seconds`, an SQL expression of whole seconds (a literal, or a column
    /// of the policy's product terms).
    func adding(seconds: String, to timestamp: String) -> String {
        switch dialect {
        case .duckdb, .spark: return "\(timestamp) + \(seconds) * INTERVAL '1' SECOND"
        case .bigquery: return "TIMESTAMP_ADD(\(timestamp), INTERVAL \(seconds) SECOND)"
        case .snowflake: return "DATEADD(second, \(seconds), \(timestamp))"
        }
    }

    /// A 64-bit fingerprint of `text`: equal texts have equal fingerprints, and different
    /// ones may share one. A key to narrow a search by, never to decide one: rows found by it
    /// are compared by their own columns afterwards.
    ///
    /// DuckDB's string hash folds 8-byte words by XOR and multiply, and a multiply carries a
    /// difference only towards the high bits: two ids that differ in the last byte of one word
    /// can cancel out in the next. Sixteen-digit ids (the App Store's) share such fingerprints
    /// by the hundred thousand (388,644 at a million customers, for 11,582 ids really
    /// repeated). Hashed with the text reversed as well, such a difference lands in the low byte
    /// of a word, which the multiply spreads over every bit: 11,582 shared, the repeated ids.
    func fingerprint(_ text: String) -> String {
        switch dialect {
        case .duckdb: return "HASH(\(text), REVERSE(\(text)))"
        case .snowflake: return "HASH(\(text))"
        case .spark: return "XXHASH64(\(text))"
        case .bigquery: return "FARM_FINGERPRINT(\(text))"
        }
    }

    /// The array of a group's `fingerprint`s (never NULL), for `fingerprints(in:of:as:)`.
    func collect(fingerprint value: String) -> String {
        switch dialect {
        case .spark: return "COLLECT_LIST(\(value))"
        case .duckdb, .bigquery, .snowflake: return "ARRAY_AGG(\(value))"
        }
    }

    /// A query of one row per fingerprint in the array column `column` of `table`, named `name`.
    func fingerprints(in column: String, of table: String, as name: String) -> String {
        switch dialect {
        case .duckdb: return "SELECT UNNEST(\(column)) AS \(name) FROM \(table)"
        case .spark: return "SELECT EXPLODE(\(column)) AS \(name) FROM \(table)"
        case .bigquery: return "SELECT \(name) FROM \(table) AS grouped CROSS JOIN UNNEST(grouped.\(column)) AS \(name)"
        case .snowflake:
            // FLATTEN yields VARIANTs; HASH's type is NUMBER(19, 0).
            return
                "SELECT CAST(element.VALUE AS NUMBER(19, 0)) AS \(name) FROM \(table) AS grouped, LATERAL FLATTEN(INPUT => grouped.\(column)) AS element"
        }
    }

    /// The aggregate that is `value` of the row, among those where `condition` holds, whose
    /// `order` (expressions compared in turn) is greatest; NULL when no row holds it. `value`
    /// must not be NULL where `condition` holds (BigQuery and Snowflake drop NULLs), and rows
    /// tied on every `order` expression must share it. One pass over the rows, where a
    /// ROW_NUMBER window would sort them all (DuckDB: 7 s and 1.2 GB for a million customers'
    /// renewals, against 4 s and 0.4 GB).
    func latest(_ value: String, by order: [String], where condition: String) -> String {
        let descending = order.map { "\($0) DESC" }.joined(separator: ", ")
        switch dialect {
        case .duckdb:
            return "ARG_MAX(\(value), (\(order.joined(separator: ", ")))) FILTER (WHERE \(condition))"
        case .spark:
            return "MAX_BY(\(value), STRUCT(\(order.joined(separator: ", ")))) FILTER (WHERE \(condition))"
        case .bigquery:
            return "ARRAY_AGG(CASE WHEN \(condition) THEN \(value) END IGNORE NULLS ORDER BY \(descending) LIMIT 1)"
                + "[SAFE_OFFSET(0)]"
        case .snowflake:
            return
                "CAST(GET(ARRAY_AGG(CASE WHEN \(condition) THEN \(value) END) WITHIN GROUP (ORDER BY \(descending)), 0)"
                + " AS VARCHAR)"
        }
    }

    /// The `index`th (from 1) dot-separated part of `text`, `''` past the last.
    func part(_ text: String, _ index: Int) -> String {
        switch dialect {
        case .duckdb, .spark, .snowflake: return "SPLIT_PART(\(text), '.', \(index))"
        case .bigquery: return "COALESCE(SPLIT(\(text), '.')[SAFE_OFFSET(\(index - 1))], '')"
        }
    }

    /// `text` without its leading zeros.
    func withoutLeadingZeros(_ text: String) -> String {
        switch dialect {
        case .duckdb, .bigquery, .snowflake: return "LTRIM(\(text), '0')"
        case .spark: return "TRIM(LEADING '0' FROM \(text))"
        }
    }

    /// The statement that makes `name` the result of `query` for the rest of the script.
    func createWorkTable(_ name: String, _ query: String) -> String {
        switch dialect {
        case .duckdb: return "CREATE OR REPLACE TEMP TABLE \(name) AS\n\(query);"
        case .spark:
            // A session that ran the script before holds the view: dropped first.
            return "UNCACHE TABLE IF EXISTS \(name);\nDROP VIEW IF EXISTS \(name);\nCACHE TABLE \(name) AS\n\(query);"
        case .bigquery: return "CREATE TEMP TABLE \(name) AS\n\(query);"
        case .snowflake: return "CREATE OR REPLACE TEMPORARY TABLE \(name) AS\n\(query);"
        }
    }

    /// The statement that makes the result table `name` from `query`, replacing an older one.
    func createResultTable(_ name: String, _ query: String) -> String {
        switch dialect {
        case .spark: return "DROP TABLE IF EXISTS \(name);\nCREATE TABLE \(name) USING parquet AS\n\(query);"
        case .duckdb, .bigquery, .snowflake: return "CREATE OR REPLACE TABLE \(name) AS\n\(query);"
        }
    }
}
