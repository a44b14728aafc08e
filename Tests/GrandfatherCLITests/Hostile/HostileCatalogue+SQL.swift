import Foundation

/// The SQL path under attack (issue 33, items 4, 5, 6 and 12's warehouse findings): table
/// names that went into the script as code, `--load` paths the engines read as globs, a
/// script printed into a full disk, and what the engines and the exporter choked on. The
/// DuckDB rows run the script in DuckDB (`duck.py`, Python's duckdb, as `scripts/test`
/// installs it).
extension HostileCatalogue {
    static let sqlArguments = "sql --policy policy.json --as-of 2024-06-01T00:00:00Z --dialect duckdb"

    static let sqlOptions: [HostileCase] = [
        // 33.6: a script printed into a full disk.
        intoFullDisk("`grandfather sql … > /dev/full` (more than one buffer of output)", "33.6", sqlArguments)
    ]
}
