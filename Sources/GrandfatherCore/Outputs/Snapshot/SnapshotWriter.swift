import CSQLiteTuning
import Foundation
import GRDB
import GrandfatherEngine

/// Describes one run for the `runs` table: what the command knows and the audit does not.
public struct RunRecord: Sendable {
    /// The run folder's name.
    public var runID: String
    /// When the run started, ISO-8601 UTC (clock time: describes the run, not the data).
    public var startedAt: String

    public init(runID: String, startedAt: String) {
        self.runID = runID
        self.startedAt = startedAt
    }

    /// The record of a run started at `start` by process `processID`: its folder is named by
    /// the UTC start to the millisecond, then the process id (`20261124T202008.123Z-4242`).
    init(startingAt start: Instant, processID: Int32) {
        let micros = start.microseconds
        // `2026-11-24T20:20:08.123Z`, or `…08Z` on a whole second.
        startedAt = Instant(microseconds: micros - (micros % 1000 + 1000) % 1000).iso8601
        let fraction = startedAt.count > 20 ? String(startedAt.dropFirst(19).dropLast()) : ".000"
        runID = startedAt.prefix(19).filter { $0 != "-" && $0 != ":" } + fraction + "Z-\(processID)"
    }
}

/// Writes `snapshot.sqlite` into a fresh file (SPEC §6): prepared statements in one
/// transaction, rows in key order, indexes after the bulk insert. Journal and syncs are
/// off while writing, which is safe because the file becomes visible only when its run
/// folder is renamed into place; the caller fsyncs the finished file.
enum SnapshotWriter {
    /// The snapshot is written in two parts at once, each into its own new file by its own
    /// connection (SQLite writes one file on one core): customers, the flag catalog and the
    /// rejected rows into the snapshot itself, flags and grants into a side file, each part
    /// building its own tables' indexes. `finish` then copies the side file's tables and
    /// indexes in (SQLite's transfer optimisation copies b-trees without decoding or sorting
    /// them again) and adds the run.
    enum Part: CaseIterable {
        case customers, grants
    }

    /// The side file for `Part.grants` next to the snapshot at `path`.
    static func sidePath(for path: String) -> String {
        path + ".grants"
    }

    /// Writes one part; returns the seconds it took.
    static func write(_ part: Part, of audit: Audit, snapshot path: String) throws(GrandfatherError) -> Double {
        let start = Stopwatch()
        _ = tuneOnce
        let file = part == .customers ? path : sidePath(for: path)
        try withDatabase(file, pageSize: pageSize(for: audit)) { db in
            try db.inTransaction {
                for statement in SnapshotSchema.tables { try db.execute(sql: statement) }
                switch part {
                case .customers:
                    try insertCatalog(db)
                    try insertCustomers(audit, db)
                    try insertRejections(audit, db)
                    try insertChanges(audit, db)
                    try insertMergedIDs(audit, db)
                    for statement in SnapshotSchema.customerIndexes { try db.execute(sql: statement) }
                case .grants:
                    try insertFlagsAndGrants(audit, db)
                    for statement in SnapshotSchema.grantIndexes { try db.execute(sql: statement) }
                }
                return .commit
            }
        }
        return start.elapsed
    }

    /// Large pages for a large snapshot: a third less time building 200 MB of b-trees written
    /// in key order (fewer pages to split, link and write). A small one keeps SQLite's default,
    /// since every table and index takes at least one page: 64 KiB pages would make the
    /// snapshot of a handful of customers most of a megabyte. Both parts get the same size.
    static func pageSize(for audit: Audit) -> Int? {
        audit.customers.count >= 50_000 ? 65536 : nil
    }

    /// Copies the side file's tables in with their indexes and removes the side file, once
    /// both parts are written; returns the seconds it took.
    static func merge(snapshot path: String) throws(GrandfatherError) -> Double {
        let start = Stopwatch()
        let side = sidePath(for: path)
        try withDatabase(path) { db in
            try db.execute(sql: "ATTACH DATABASE ? AS side", arguments: [side])
            try db.inTransaction {
                // With the same indexes on both sides and the tables empty here, SQLite copies
                // each table and each index b-tree as it is (its transfer optimisation), so no
                // index is sorted again on this one core.
                for statement in SnapshotSchema.grantIndexes { try db.execute(sql: statement) }
                try db.execute(sql: "INSERT INTO customer_flags SELECT * FROM side.customer_flags")
                try db.execute(sql: "INSERT INTO entitlements SELECT * FROM side.entitlements")
                try db.execute(sql: "INSERT INTO deciding_transactions SELECT * FROM side.deciding_transactions")
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE side")
        }
        try Disk.remove(side)
        return start.elapsed
    }

    /// Adds the run's row once every stage's timing is known and stamps the schema version:
    /// the last write, after `merge`.
    static func finish(
        _ audit: Audit, run: RunRecord, timings: StageTimings, snapshot path: String
    ) throws(GrandfatherError) {
        try withDatabase(path) { db in
            try db.inTransaction {
                try insertRun(audit, run: run, timings: timings, db)
                try db.execute(sql: "PRAGMA user_version = \(SnapshotSchema.version)")
                return .commit
            }
        }
    }

    /// Opens `path` for writing; `pageSize` applies to a file that has no pages yet.
    private static func withDatabase(
        _ path: String, pageSize: Int? = nil, _ body: (Database) throws -> Void
    ) throws(GrandfatherError) {
        do {
            var configuration = Configuration()
            configuration.label = "snapshot"
            // Every row is consistent by construction (flags and grants name customers of the
            // same audit; tests run `PRAGMA foreign_key_check`). Enforcing the references per
            // row would cost a lookup each and keep SQLite from copying the side file's
            // tables in whole.
            configuration.foreignKeysEnabled = false
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                // A fresh file that becomes visible only when its run folder is renamed into
                // place: no journal, no syncs (the writer flushes the finished file itself).
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
                // The CHECK constraints stay in the schema for whoever writes to the snapshot
                // later; the rows written here hold them by construction, and evaluating them
                // per row costs the bulk insert a tenth of its time. `PRAGMA integrity_check`
                // verifies them, and the tests run it on the snapshots they write.
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                if let pageSize { try db.execute(sql: "PRAGMA page_size = \(pageSize)") }
                // SQLite's own default again (2000 KiB), said after the page size: left unsaid, a
                // connection writing 64 KiB pages kept 26 MB of them cached (heaptrack at a
                // million customers), both parts at once, the run's peak. The rows go in key
                // order, so only the b-trees' right edges are touched again.
                try db.execute(sql: "PRAGMA cache_size = -2000")
                do {
                    try body(db)
                } catch let error as DatabaseError
                    where error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_FULL
                {
                    // "disk I/O error" alone does not tell a full disk from a size limit. SQLite
                    // keeps no errno for a failed write (sqlite3_system_errno says 0), but the
                    // thread's errno still holds the write's.
                    let cause = String(cString: strerror(errno))
                    throw GrandfatherError.snapshot(message: "\(error.description) (\(cause))")
                }
            }
            try queue.close()
        } catch let error as GrandfatherError {
            throw error
        } catch let error as DatabaseError {
            throw .snapshot(message: error.description)
        } catch {
            throw .snapshot(message: "\(error)")
        }
    }

    /// Tunes the SQLite library once per process, before the first connection (a second
    /// call would be refused, harmlessly).
    private static let tuneOnce: Int32 = grandfather_sqlite_tune()

    private static func insertCatalog(_ db: Database) throws {
        var insert = try BulkInsert(db, sql: "INSERT INTO flag_catalog VALUES (?, ?, ?)")
        for flag in Flag.allCases.sorted() {
            try insert.bind(flag.code)
            try insert.bind(flag.severity.rawValue)
            try insert.bind(flag.explanation)
            try insert.step()
        }
    }

    /// Customers in customer-id order (the table's key order).
    private static func insertCustomers(_ audit: Audit, _ db: Database) throws {
        var customer = try BulkInsert(db, sql: "INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        var factSource = try BulkInsert(db, sql: "INSERT INTO customer_fact_sources VALUES (?, ?, ?)")
        // Each platform's cutover version text, looked up once rather than per customer.
        let cutover = audit.policy.cutover
        let cutoverTexts = Platform.allCases.map { cutover.version(for: $0)?.text }
        try audit.customers.forEachVerdict { record, verdict, _ in
            try customer.bind(record.id)
            try customer.bind(record.platform?.rawValue)
            try customer.bind(record.originalAppVersion)
            try customer.bind(record.originalPurchaseDate)
            try customer.bind(record.environment.rawValue)
            try customer.bind(record.preorderDate)
            try customer.bind(record.storefront)
            try customer.bind(verdict.customerClass.rawValue)
            try customer.bind(record.isOrphan)
            let applies = record.environment == .production ? record.platform.flatMap { cutoverTexts[$0.index] } : nil
            try customer.bind(applies)
            try customer.bind(verdict.byVersion)
            try customer.bind(verdict.byDate)
            try customer.bind(record.provenance.rowSource?.code)
            try customer.step()
            guard record.provenance.isAssembled else { return }
            for fact in CustomerFact.allCases {
                guard let source = record.provenance.source(of: fact) else { continue }
                try factSource.bind(record.id)
                try factSource.bind(fact.code)
                try factSource.bind(source.code)
                try factSource.step()
            }
        }
    }

    /// Flags, grants and deciding transactions in customer-id order (the key order of the
    /// flags table).
    private static func insertFlagsAndGrants(_ audit: Audit, _ db: Database) throws {
        var flag = try BulkInsert(db, sql: "INSERT INTO customer_flags VALUES (?, ?)")
        var grant = try BulkInsert(db, sql: "INSERT INTO entitlements VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        var deciding = try BulkInsert(
            db, sql: "INSERT INTO deciding_transactions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        // The run's one classifier, which made the verdicts.
        let classifier = audit.customers.classifier
        // Grants of one source share one description: made once per provenance in a row, not
        // per grant (a customer of two million grants made two million alike).
        var described: (provenance: TransactionProvenance, text: String)?
        func description(of provenance: TransactionProvenance) -> String {
            if let described, described.provenance == provenance { return described.text }
            let text = provenance.described
            described = (provenance, text)
            return text
        }
        try audit.customers.forEachVerdict { record, verdict, activity in
            try verdict.flags.forEach { code in
                try flag.bind(record.id)
                try flag.bind(code.code)
                try flag.step()
            }
            if let latest = Classifier.decidingLatestRenewable(verdict, activity) {
                try insertLatestRenewable(latest, of: record, into: &deciding)
            }
            guard verdict.customerClass == .grandfathered || verdict.customerClass == .subscriber else { return }
            var grantingNothing: [Int] = []
            try classifier.withGrants(activity, verdict.customerClass) { places in
                for place in places {
                    try grant.bind(record.id)
                    try grant.bind(classifier.name(of: place))
                    try grant.bind(place.source.rawValue)
                    if let index = place.transaction {
                        try grant.bind(activity.current[index].transactionID)
                        try grant.bind(activity.current[index].endsAt)
                        try grant.bind(activity.current[index].productID)
                        try grant.bind(activity.current[index].productType.rawValue)
                        try grant.bind(description(of: activity.current[index].provenance))
                    } else {
                        for _ in 0..<5 { try grant.bind(nil as String?) }
                    }
                    try grant.step()
                }
            } grantingNothing: {
                grantingNothing.append($0)
            }
            if !grantingNothing.isEmpty {
                try insertGrantingNothing(grantingNothing, of: activity, record, into: &deciding)
            }
        }
    }

    // `deciding_transactions` holds the transactions that decided the class or a flag but grant
    // nothing, so that no `entitlements` row names them: a current transaction whose product
    // grants no entitlement (it still makes a subscriber, SPEC §8.11), and the latest
    // auto-renewable of a `billing_retry` customer (SPEC §8.19). One row per transaction id.

    /// Current transactions that grant nothing (at `indices` of the activity), in id order; of
    /// two current versions of one id (a conflicting duplicate), the one current longest.
    private static func insertGrantingNothing(
        _ indices: [Int], of activity: borrowing CustomerActivity, _ record: Customer,
        into insert: inout BulkInsert
    ) throws {
        let current = indices.map { activity.current[$0] }
        var previous: CompactText?
        for grant in current.count > 1 ? current.sorted(by: precedes) : current {
            if let previous, previous == grant.transactionID { continue }
            previous = grant.transactionID
            try insert.bind(record.id)
            try insert.bind(grant.transactionID)
            try insert.bind(grant.productID)
            try insert.bind(grant.productType.rawValue)
            try insert.bind(grant.familyShared)
            try insert.bind(nil as Instant?)
            try insert.bind(grant.throughGrace ? RenewalState.inGracePeriod.rawValue : nil)
            try insert.bind(true)
            try insert.bind(grant.endsAt)
            try insert.bind(grant.throughGrace)
            try insert.bind(grant.provenance.described)
            try insert.step()
        }
    }

    /// The latest auto-renewable that raised `billing_retry`; the run kept no product for it.
    private static func insertLatestRenewable(
        _ latest: CustomerActivity.LatestRenewable, of record: Customer, into insert: inout BulkInsert
    ) throws {
        try insert.bind(record.id)
        try insert.bind(latest.transactionID)
        try insert.bind(nil as String?)
        try insert.bind(ProductType.autoRenewable.rawValue)
        try insert.bind(nil as Bool?)
        try insert.bind(latest.purchaseDate)
        try insert.bind(latest.state?.rawValue)
        try insert.bind(false)
        try insert.bind(nil as Instant?)
        try insert.bind(false)
        try insert.bind(latest.provenance.described)
        try insert.step()
    }

    /// Current transactions by id; of one id's versions, the one current longest first (a
    /// non-consumable never ends), then by what else tells them apart.
    private static func precedes(_ lhs: CustomerActivity.CurrentGrant, _ rhs: CustomerActivity.CurrentGrant) -> Bool {
        if lhs.transactionID != rhs.transactionID { return lhs.transactionID.precedes(rhs.transactionID) }
        if lhs.endsAt != rhs.endsAt { return (lhs.endsAt?.microseconds ?? .max) > (rhs.endsAt?.microseconds ?? .max) }
        if lhs.throughGrace != rhs.throughGrace { return !lhs.throughGrace }
        if lhs.familyShared != rhs.familyShared { return !lhs.familyShared }
        if !lhs.productID.codePointEquals(rhs.productID) { return lhs.productID.codePointPrecedes(rhs.productID) }
        return lhs.productType.code < rhs.productType.code
    }

    private static func insertRejections(_ audit: Audit, _ db: Database) throws {
        var insert = try BulkInsert(db, sql: "INSERT INTO rejected_rows VALUES (?, ?, ?, ?, ?)")
        for rejection in audit.rejections {
            try insert.bind(rejection.file)
            try insert.bind(rejection.line)
            try insert.bind(rejection.column)
            try insert.bind(rejection.field)
            try insert.bind(rejection.reason)
            try insert.step()
        }
    }

    /// The customers that changed since the previous run, in id order; lists `;`-joined as
    /// in `customers.csv`, NULL when empty.
    private static func insertChanges(_ audit: Audit, _ db: Database) throws {
        var insert = try BulkInsert(db, sql: "INSERT INTO changes VALUES (?, ?, ?, ?, ?, ?, ?)")
        func list(_ items: [String]) -> String? { items.isEmpty ? nil : items.joined(separator: ";") }
        for change in audit.changes.changes {
            try insert.bind(change.customerID)
            try insert.bind(change.from?.rawValue)
            try insert.bind(change.to?.rawValue)
            try insert.bind(list(change.flagsAdded))
            try insert.bind(list(change.flagsRemoved))
            try insert.bind(list(change.entitlementsAdded))
            try insert.bind(list(change.entitlementsRemoved))
            try insert.step()
        }
    }

    /// The ids merged onto another customer, in id order.
    private static func insertMergedIDs(_ audit: Audit, _ db: Database) throws {
        var insert = try BulkInsert(db, sql: "INSERT INTO merged_ids VALUES (?, ?, ?)")
        for merged in audit.mergedIDs {
            try insert.bind(merged.id)
            try insert.bind(merged.customerID)
            try insert.bind(merged.how.rawValue)
            try insert.step()
        }
    }

    /// The previous snapshot's runs, carried forward, then this run's.
    private static func insertRun(_ audit: Audit, run: RunRecord, timings: StageTimings, _ db: Database) throws {
        let placeholders = Array(repeating: "?", count: SnapshotSchema.runColumns.count).joined(separator: ", ")
        let sql = "INSERT INTO runs VALUES (\(placeholders))"
        for carried in audit.previous?.runs ?? [] where String.fromDatabaseValue(carried[0]) != run.runID {
            try db.execute(sql: sql, arguments: StatementArguments(carried))
        }
        let exceeded = audit.exceedsRejectionThreshold
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let inputs = String(decoding: try encoder.encode(audit.inputs), as: UTF8.self)
        let compared = audit.changes.wasCompared
        var previousRunID: String?
        if case .compared(_, let runID) = audit.changes.basis { previousRunID = runID }
        try db.execute(
            sql: sql,
            arguments: [
                run.runID, run.startedAt, audit.asOf.iso8601, exceeded ? "data_quality_threshold_exceeded" : "ok",
                exceeded ? 3 : 0, ToolVersion.current, audit.policy.name, audit.policy.digest,
                audit.policy.sourceText, inputs, audit.rowsRead, audit.rowsAccepted, audit.rowsRejected,
                audit.customers.count, timings.ingest, timings.classify, timings.reports, timings.snapshot,
                previousRunID, compared ? timings.compare : nil, compared ? audit.changes.changes.count : nil,
                try audit.appStore.map { String(decoding: try encoder.encode(AppStoreSummaryJSON($0)), as: UTF8.self) },
                audit.engine,
            ])
    }
}
