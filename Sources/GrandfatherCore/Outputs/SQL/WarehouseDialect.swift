/// The SQL engines `grandfather sql` writes for. DuckDB and Spark are verified here, by running
/// the script on every parity set; BigQuery and Snowflake are checked only by parsing
/// (docs/Warehouse.md, "When one machine is not enough").
public enum WarehouseDialect: String, CaseIterable, Sendable {
    case duckdb, spark, bigquery, snowflake

    /// The dialect's name for a layout column type; `nil` dialect for standard SQL.
    static func typeName(_ type: WarehouseLayout.ColumnType, in dialect: WarehouseDialect?) -> String {
        switch (type, dialect) {
        case (.text, .spark?), (.text, .bigquery?): return "STRING"
        case (.text, _): return "VARCHAR"
        case (.timestamp, .snowflake?): return "TIMESTAMP_NTZ"
        case (.timestamp, _): return "TIMESTAMP"
        case (.boolean, .bigquery?): return "BOOL"
        case (.boolean, _): return "BOOLEAN"
        case (.integer, .bigquery?): return "INT64"
        case (.integer, _): return "BIGINT"
        }
    }
}

/// `schema.sql`: the layout's tables as `CREATE TABLE` statements.
enum WarehouseSchema {
    /// The statements for `dialect` (standard SQL types for `nil`), with `prefix` before each
    /// table name.
    static func script(for dialect: WarehouseDialect?, tables: [WarehouseLayout.Table] = WarehouseLayout.tables)
        -> String
    {
        var text = """
            -- Grandfather's warehouse layout (grandfather normalize; docs/Warehouse.md, "When one machine is not enough").
            -- Every instant is UTC; every enum lower-case; an empty CSV cell is NULL.

            """
        for table in tables {
            text += "\n-- \(table.meaning)\nCREATE TABLE \(table.name) (\n"
            text += table.columns.map { column in
                "    \(column.name) \(WarehouseDialect.typeName(column.type, in: dialect))"
                    + (column.required ? " NOT NULL" : "")
            }.joined(separator: ",\n")
            text += "\n);\n"
        }
        return text
    }
}
