import Foundation
import GRDB
import GrandfatherEngine

extension Explanation {
    /// The snapshot file `given` names: itself, `given/snapshot.sqlite` for a run folder, or
    /// `given/latest/snapshot.sqlite` for an output folder (one with a `latest` link).
    public static func snapshotFile(named given: String) -> String {
        guard FileSystem.isDirectory(given) else { return given }
        let folder = given.hasSuffix("/") ? given : given + "/"
        if !FileSystem.exists(folder + "snapshot.sqlite"), FileSystem.exists(folder + "latest") {
            return folder + "latest/snapshot.sqlite"
        }
        return folder + "snapshot.sqlite"
    }

    /// Reads one customer from a snapshot, opened read-only.
    ///
    /// - Parameters:
    ///   - customerID: compared by exact code points (SQLite's binary collation compares the
    ///     UTF-8 bytes), so NFC and NFD spellings are two customers, as in every output.
    ///   - path: the snapshot file.
    /// - Throws: `GrandfatherError.io` (exit 1) when the snapshot is missing, not SQLite, of a
    ///   schema version this tool does not know, or its run's policy cannot be read;
    ///   `GrandfatherError.usage` (exit 2) when the customer is not in it.
    public static func read(customerID: String, snapshot path: String) throws(GrandfatherError) -> Explanation {
        let snapshot = try ReadOnlySnapshot.open(path, label: "explain", noun: "snapshot")
        do {
            let explanation = try snapshot.queue.read { db in
                try read(customerID: customerID, path: path, version: snapshot.version, db)
            }
            try snapshot.queue.close()
            return explanation
        } catch {
            throw ReadOnlySnapshot.failure(error, path: path, noun: "snapshot")
        }
    }

    private static func read(customerID: String, path: String, version: Int, _ db: Database) throws -> Explanation {
        let run = try readRun(path: path, db)
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM customers WHERE customer_id = ?", arguments: [customerID]),
            let id = row["customer_id"] as String?, id.codePointEquals(customerID)
        else {
            throw GrandfatherError.usage("customer '\(PlainText.escaped(customerID))' is not in \(path)")
        }
        let facts = try readFacts(row, path: path)
        let classText: String = row["class"]
        guard let customerClass = CustomerClass(rawValue: classText) else {
            throw GrandfatherError.io(path: path, message: "customer '\(id)' has unknown class '\(classText)'")
        }
        let reason = AuditRules.reason(
            customerClass, byVersion: facts.byVersion, byDate: facts.byDate, basis: run.policy.cutover.basis)
        // A snapshot written before explain existed names no products and keeps no deciding
        // transactions: its transactions are "not recorded".
        let recordsTransactions =
            try db.tableExists("deciding_transactions")
            && db.columns(in: "entitlements").contains { $0.name == "product_id" }
        // Before version 7 no source of a transaction's facts was recorded.
        let sources = try recordsTransactions && db.columns(in: "entitlements").contains { $0.name == "fact_sources" }
        let grants = try readGrants(id, products: recordsTransactions, sources: sources, path: path, db)
        return Explanation(
            facts: facts, customerClass: customerClass, reason: reason, flags: try readFlags(id, db),
            grants: grants.map(\.grant),
            transactions: recordsTransactions
                ? (current(from: grants) + (try readDecidingTransactions(id, sources: sources, path: path, db))).sorted(
                    by: listOrder)
                : nil,
            run: run.run, policy: run.policy, schemaVersion: version)
    }

    private static func readRun(path: String, _ db: Database) throws -> (run: Run, policy: Policy) {
        // The snapshot's own run is the row it added last, after those carried forward.
        guard
            let row = try Row.fetchOne(
                db,
                sql:
                    "SELECT run_id, as_of, policy_name, policy_sha256, policy_json FROM runs ORDER BY rowid DESC LIMIT 1"
            )
        else { throw GrandfatherError.io(path: path, message: "snapshot has no run") }
        let policyText: String = row["policy_json"]
        let policy = try PolicyLoader.parse(data: Data(policyText.utf8), file: path + ": runs.policy_json")
        let run = Run(
            runID: row["run_id"], asOf: try instant(row["as_of"], path: path) ?? Instant(microseconds: 0),
            policyName: row["policy_name"], policyDigest: row["policy_sha256"])
        return (run, policy)
    }

    private static func readFacts(_ row: Row, path: String) throws -> Facts {
        let environmentText: String = row["environment"]
        return Facts(
            customerID: row["customer_id"], platform: row["platform"], originalAppVersion: row["original_app_version"],
            originalPurchaseDate: try instant(row["original_purchase_date"], path: path),
            environment: Environment(rawValue: environmentText) ?? .production,
            preorderDate: try instant(row["preorder_date"], path: path), storefront: row["storefront"],
            isOrphan: row["is_orphan"], cutoverVersion: row["cutover_version"],
            byVersion: row["before_cutover_by_version"], byDate: row["before_cutover_by_date"])
    }

    private static func readFlags(_ id: String, _ db: Database) throws -> [FlagLine] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT f.flag, c.severity, c.explanation FROM customer_flags f
                LEFT JOIN flag_catalog c ON c.flag = f.flag WHERE f.customer_id = ? ORDER BY f.flag
                """, arguments: [id])
        return rows.map { row in
            let code: String = row[0]
            let known = Flag(rawValue: code)
            return FlagLine(
                code: code, severity: row[1] ?? known?.severity.rawValue ?? "unknown",
                explanation: row[2] ?? known?.explanation ?? "")
        }
    }

    /// A row of `entitlements`: a grant, and the product of the transaction that makes it.
    private struct GrantRow {
        var grant: EntitlementGrant
        var productID: String?
        var productType: ProductType?
        var factSources: String?
    }

    private static func readGrants(
        _ id: String, products: Bool, sources: Bool, path: String, _ db: Database
    ) throws -> [GrantRow] {
        let columns =
            "entitlement, source, transaction_id, expires_date" + (products ? ", product_id, product_type" : "")
            + (sources ? ", fact_sources" : "")
        let rows = try Row.fetchAll(
            db, sql: "SELECT \(columns) FROM entitlements WHERE customer_id = ?", arguments: [id])
        return try rows.map { row in
            let sourceText: String = row[1]
            guard let source = EntitlementSource(rawValue: sourceText) else {
                throw GrandfatherError.io(path: path, message: "unknown entitlement source '\(sourceText)'")
            }
            let grant = EntitlementGrant(
                entitlement: row[0], source: source, transactionID: row[2], expiresDate: try instant(row[3], path: path)
            )
            guard products else { return GrantRow(grant: grant) }
            return GrantRow(
                grant: grant, productID: row[4], productType: (row[5] as String?).flatMap(ProductType.init(rawValue:)),
                factSources: sources ? row[6] : nil)
        }.sorted { $0.grant < $1.grant }
    }

    /// The current transactions that grant something, one per transaction (and version),
    /// from the `entitlements` rows that name them.
    private static func current(from grants: [GrantRow]) -> [DecidingTransaction] {
        var transactions: [DecidingTransaction] = []
        for row in grants {
            guard let id = row.grant.transactionID, let productType = row.productType else { continue }
            let source = row.grant.source
            let transaction = DecidingTransaction(
                transactionID: id, productID: row.productID, productType: productType,
                familyShared: source == .gracePeriod ? nil : source == .familyShared,
                purchaseDate: nil, renewalState: source == .gracePeriod ? .inGracePeriod : nil, isCurrent: true,
                currentUntil: row.grant.expiresDate, throughGrace: source == .gracePeriod,
                factSources: row.factSources)
            if !transactions.contains(where: { $0.isSameVersion(as: transaction) }) { transactions.append(transaction) }
        }
        return transactions
    }

    /// Current transactions first, then by id; of one id's versions, the one current longest first.
    private static func listOrder(_ lhs: DecidingTransaction, _ rhs: DecidingTransaction) -> Bool {
        if lhs.isCurrent != rhs.isCurrent { return lhs.isCurrent }
        if !lhs.transactionID.codePointEquals(rhs.transactionID) {
            return lhs.transactionID.codePointPrecedes(rhs.transactionID)
        }
        return (lhs.currentUntil?.microseconds ?? .max) > (rhs.currentUntil?.microseconds ?? .max)
    }

    /// The transactions that decided without granting anything (`deciding_transactions`).
    private static func readDecidingTransactions(
        _ id: String, sources: Bool, path: String, _ db: Database
    ) throws -> [DecidingTransaction] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT transaction_id, product_id, product_type, family_shared, purchase_date, renewal_state, is_current,
                current_until, through_grace\(sources ? ", fact_sources" : "") FROM deciding_transactions
                WHERE customer_id = ?
                """, arguments: [id])
        return try rows.map { row in
            let typeText: String = row[2]
            guard let productType = ProductType(rawValue: typeText) else {
                throw GrandfatherError.io(path: path, message: "unknown product type '\(typeText)'")
            }
            return DecidingTransaction(
                transactionID: row[0], productID: row[1], productType: productType, familyShared: row[3],
                purchaseDate: try instant(row[4], path: path),
                renewalState: (row[5] as String?).flatMap(RenewalState.init(rawValue:)), isCurrent: row[6],
                currentUntil: try instant(row[7], path: path), throughGrace: row[8],
                factSources: sources ? row[9] : nil)
        }
    }

    /// An instant as the snapshot writes it (ISO-8601 in UTC); `nil` for NULL.
    private static func instant(_ text: String?, path: String) throws -> Instant? {
        guard let text else { return nil }
        switch TimestampParser(defaultZone: nil).parse(text) {
        case .success(let instant): return instant
        case .failure: throw GrandfatherError.io(path: path, message: "snapshot holds an invalid instant '\(text)'")
        }
    }
}
