import Foundation
import GRDB

/// Reads a snapshot back, as a downstream `sqlite3` user would.
struct SnapshotDump {
    let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Every row of a table, in a stable order, as text lines.
    func rows(_ table: String) throws -> [String] {
        try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table)")
            return rows.map { row in
                row.databaseValues.map { $0.isNull ? "NULL" : $0.description }.joined(separator: "|")
            }.sorted()
        }
    }

    /// Names of the tables, sorted.
    func tables() throws -> [String] {
        try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }

    /// The first column of the first row of a query, as text.
    func text(_ sql: String) throws -> String? {
        try queue.read { db in try String.fetchOne(db, sql: sql) }
    }

    func userVersion() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1 }
    }

    /// class, sorted flags and sorted (entitlement, source) pairs per customer.
    func verdicts() throws -> [String: Verdict] {
        try queue.read { db in
            var result: [String: Verdict] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT customer_id, class FROM customers") {
                result[row["customer_id"]] = Verdict(customerClass: row["class"], flags: [], entitlements: [])
            }
            for row in try Row.fetchAll(db, sql: "SELECT customer_id, flag FROM customer_flags") {
                result[row["customer_id"], default: Verdict()].flags.insert(row["flag"])
            }
            for row in try Row.fetchAll(db, sql: "SELECT customer_id, entitlement, source FROM entitlements") {
                let pair: String = row["entitlement"] + ":" + row["source"]
                result[row["customer_id"], default: Verdict()].entitlements.insert(pair)
            }
            return result
        }
    }
}

/// What a customer came out as: the unit the conformance set compares.
struct Verdict: Equatable, CustomStringConvertible {
    var customerClass: String?
    var flags: Set<String> = []
    var entitlements: Set<String> = []

    var description: String {
        "\(customerClass ?? "absent") flags=\(flags.sorted()) entitlements=\(entitlements.sorted())"
    }
}
