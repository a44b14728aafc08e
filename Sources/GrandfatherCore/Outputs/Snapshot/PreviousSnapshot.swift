import GRDB

/// The snapshot of the run a new run is compared with (SPEC §6): the one `DIR/latest`
/// points to, or one named by `--previous`. Opened read-only; any schema version from 1 to
/// the current one is read, so a nightly job keeps its history across an upgrade.
public final class PreviousSnapshot: Sendable {
    /// The path as given.
    public let path: String
    /// Its `PRAGMA user_version`.
    public let schemaVersion: Int
    /// The id of the run that wrote it: its newest `runs` row.
    public let runID: String?
    /// Its `runs` rows, oldest first, as values of `SnapshotSchema.runColumns` (a column an
    /// older schema lacks is NULL): carried forward into the new snapshot.
    let runs: [[DatabaseValue]]
    private let queue: DatabaseQueue

    /// Opens and checks a snapshot.
    /// - Throws: `GrandfatherError.io` naming the path when it is missing, not SQLite, or
    ///   of a schema version this tool does not know.
    public init(path: String) throws(GrandfatherError) {
        self.path = path
        let snapshot = try ReadOnlySnapshot.open(path, label: "previous", noun: "previous snapshot")
        do {
            let runs = try snapshot.queue.read { db -> [[DatabaseValue]] in
                let present = Set(try db.columns(in: "runs").map(\.name))
                let columns = SnapshotSchema.runColumns.map { present.contains($0) ? "\"\($0)\"" : "NULL" }
                let rows = try Row.fetchAll(
                    db, sql: "SELECT \(columns.joined(separator: ", ")) FROM runs ORDER BY started_at, run_id")
                return rows.map { row in (0..<row.count).map { row[$0] as DatabaseValue } }
            }
            self.queue = snapshot.queue
            self.schemaVersion = snapshot.version
            self.runs = runs
            self.runID = runs.last.flatMap { String.fromDatabaseValue($0[0]) }
        } catch {
            throw Self.failure(error, path: path)
        }
    }

    /// Any failure while reading, as one line naming the file.
    private static func failure(_ error: any Error, path: String) -> GrandfatherError {
        ReadOnlySnapshot.failure(error, path: path, noun: "previous snapshot")
    }

    /// One customer as the previous run saw it.
    struct Customer {
        var id: String
        var customerClass: CustomerClass
        /// Flag codes, sorted.
        var flags: [String]
        /// `entitlement:source` pairs, sorted.
        var entitlements: [String]
    }

    /// Visits every previous customer in id order (byte order of the UTF-8, which is the
    /// code-point order the new run sorts by), with its flags and entitlements, streaming:
    /// a million customers are never held at once.
    func forEachCustomer(_ body: (Customer) throws -> Void) throws(GrandfatherError) {
        do {
            try queue.read { db in
                let customers = try Row.fetchCursor(
                    db, sql: "SELECT customer_id, class FROM customers ORDER BY customer_id")
                var flags = try PeekingCursor(
                    Row.fetchCursor(db, sql: "SELECT customer_id, flag FROM customer_flags ORDER BY customer_id, flag"))
                var grants = try PeekingCursor(
                    Row.fetchCursor(
                        db,
                        sql: "SELECT customer_id, entitlement || ':' || source FROM entitlements ORDER BY customer_id"))
                while let row = try customers.next() {
                    let id: String = row[0]
                    let classText: String = row[1]
                    guard let customerClass = CustomerClass(rawValue: classText) else {
                        throw GrandfatherError.io(
                            path: path, message: "previous snapshot: customer '\(id)' has unknown class '\(classText)'")
                    }
                    let customerFlags = try flags.take(while: id)
                    let customerGrants = Array(Set(try grants.take(while: id))).sorted()
                    try body(
                        Customer(
                            id: id, customerClass: customerClass, flags: customerFlags, entitlements: customerGrants))
                }
            }
        } catch {
            throw Self.failure(error, path: path)
        }
    }
}

/// A cursor over `(customer_id, value)` rows sorted by id, read one customer at a time.
private struct PeekingCursor {
    private let cursor: RowCursor
    private var pending: (id: String, value: String)?

    init(_ cursor: RowCursor) throws {
        self.cursor = cursor
        pending = try Self.read(cursor)
    }

    /// The values of the rows for `id`, skipping rows of ids before it (a row naming no
    /// customer, which the schema's references rule out).
    mutating func take(while id: String) throws -> [String] {
        var values: [String] = []
        while let row = pending, !id.codePointPrecedes(row.id) {
            if row.id.codePointEquals(id) { values.append(row.value) }
            pending = try Self.read(cursor)
        }
        return values
    }

    private static func read(_ cursor: RowCursor) throws -> (id: String, value: String)? {
        guard let row = try cursor.next() else { return nil }
        return (row[0], row[1])
    }
}
