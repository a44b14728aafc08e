/// `grandfather sql`: the classification of SPEC §4, §5, §6 and §8.8–8.25 as one SQL script
/// over tables in the warehouse layout, for an engine where the data already lives. Each step
/// is a rule stated beside its Swift twin (`Rules/*+SQL.swift`); this file only orders them.
/// The policy and the as-of instant are inlined as literals, so the script is the run.
///
/// It creates three tables that mean what the snapshot's do (docs/Warehouse.md, "When one machine is not
/// enough"): `gf_customers` (customer_id, platform, original_app_version,
/// original_purchase_date, environment, class), `gf_customer_flags` (customer_id, flag) and
/// `gf_entitlements` (customer_id, entitlement, source, transaction_id, expires_date).
public enum ClassificationScript {
    /// What the script is for.
    public struct Options: Sendable {
        public var dialect: WarehouseDialect
        public var prefix = "gf_"
        public var customersTable = WarehouseLayout.customers.name
        public var transactionsTable = WarehouseLayout.transactions.name
        public var productEntitlementsTable = WarehouseLayout.productEntitlements.name
        public var serviceEntitlementsTable = WarehouseLayout.serviceEntitlements.name
        /// A `normalize` folder whose files the script loads first (DuckDB and Spark).
        public var load: String?

        public init(dialect: WarehouseDialect) {
            self.dialect = dialect
        }
    }

    /// The result tables, each named with the prefix before it.
    static let resultTables = ["customers", "customer_flags", "entitlements"]
    /// The work tables of the session, each named with the prefix's last part before it.
    static let workTables = ["transaction_facts", "customer_verdicts"]

    /// The script for `settings` (policy and as-of); a table name that is not one
    /// (`SQLTableNames`) or a `--load` folder without the layout's files is a usage error.
    public static func text(_ settings: AuditSettings, _ options: Options) throws(GrandfatherError) -> String {
        try SQLTableNames.check(options)
        let rules = AuditRules(settings)
        let sql = SQLContext(
            dialect: options.dialect, prefix: options.prefix,
            tables: SQLContext.InputTables(
                customers: options.customersTable, transactions: options.transactionsTable,
                productEntitlements: options.productEntitlementsTable,
                serviceEntitlements: options.serviceEntitlementsTable))
        var statements = [header(settings, options)]
        if let folder = options.load { statements += try WarehouseLoad.statements(folder: folder, sql) }
        let facts = sql.workTable(workTables[0])
        let verdicts = sql.workTable(workTables[1])
        statements.append(sql.createWorkTable(facts, transactionFacts(rules, sql)))
        statements.append(sql.createWorkTable(verdicts, customerVerdicts(rules, sql, facts: facts)))
        statements.append(
            sql.createResultTable(
                sql.table(resultTables[0]),
                """
                SELECT customer_id, platform, original_app_version, original_purchase_date, environment, class
                FROM \(verdicts)
                """))
        let grants = sql.table(resultTables[2])
        statements.append(
            sql.createResultTable(
                grants,
                SQLStep.query(
                    rules.grantsSQL(sql, transactions: facts, verdicts: verdicts),
                    """
                    SELECT DISTINCT customer_id, entitlement, source, transaction_id, expires_date FROM (
                        SELECT * FROM transaction_grants
                        UNION ALL
                        SELECT * FROM grandfathered_grants
                    ) AS every_grant
                    """)))
        let flagRows =
            rules.flagsSQL(sql, verdicts: verdicts)
            + ReconciliationRules(policy: rules.policy).flagsSQL(sql, verdicts: verdicts, grants: grants)
        statements.append(
            sql.createResultTable(sql.table(resultTables[1]), flagRows.joined(separator: "\nUNION ALL\n")))
        let script = statements.joined(separator: "\n\n") + "\n"
        try SQLTableNames.checkUnshadowed(options, steps: SQLStep.names(in: script))
        return script
    }

    private static func header(_ settings: AuditSettings, _ options: Options) -> String {
        """
        -- Grandfather \(ToolVersion.current): the audit as SQL (\(options.dialect.rawValue)).
        -- Policy: \(oneLine(settings.policy.name ?? "(unnamed)")), sha256 \(settings.policy.digest).
        -- As of \(settings.asOf.iso8601); the policy and the as-of instant are inlined below.
        -- Reads the warehouse layout (grandfather normalize) and creates \(options.prefix)customers,
        -- \(options.prefix)customer_flags and \(options.prefix)entitlements, which mean what the snapshot's tables mean.
        -- Every timestamp is UTC\(options.dialect == .spark ? "; run with spark.sql.session.timeZone=UTC" : "").
        """
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// Each production transaction once, with its currency (SPEC §8.8, §8.11, §8.23, §8.24).
    private static func transactionFacts(_ rules: AuditRules, _ sql: SQLContext) -> String {
        // Where a fact came from is no part of the record: copies that differ only there are
        // exact duplicates, as for the Swift engine's fingerprints.
        let columns = WarehouseLayout.transactions.columns.filter { !$0.isProvenance }.map(\.name)
            .joined(separator: ", ")
        let production = SQLStep(
            name: "production", spec: "§8.8, §8.23",
            mirrors: "ShardedLedger.add (sandbox rows dropped) and TransactionFingerprints (exact duplicates once)",
            query: "SELECT DISTINCT \(columns)\nFROM \(sql.tables.transactions)\nWHERE environment = 'production'")
        let conflicting = SQLStep(
            name: "conflicting_ids", spec: "§8.23",
            mirrors: "TransactionFingerprints.conflict (Stages/Classify/TransactionFingerprints.swift)",
            query: "SELECT transaction_id FROM production GROUP BY transaction_id HAVING COUNT(*) > 1")
        return SQLStep.query(
            [production, conflicting, rules.currencySQL(sql, rows: "production")],
            // A join, not a correlated EXISTS in the select list, which Snowflake does not read;
            // conflicting_ids holds each id once, so no row is repeated.
            """
            SELECT
                currency.*,
                (\(rules.impossibleDatesSQL(sql))) AS impossible_dates,
                conflicting.transaction_id IS NOT NULL AS in_conflict
            FROM currency
            LEFT JOIN conflicting_ids AS conflicting ON conflicting.transaction_id = currency.transaction_id
            """)
    }

    /// Every customer once, with the facts its flags read, its answers and its class.
    private static func customerVerdicts(_ rules: AuditRules, _ sql: SQLContext, facts: String) -> String {
        let customers = sql.tables.customers
        let everyone = SQLStep(
            name: "everyone", spec: "§2, §8.14",
            mirrors: "Ledger (a record, or the orphan a customer's transactions make) and Customer.orphan",
            query: """
                SELECT customer_id, platform, original_app_version, original_purchase_date, environment, preorder_date,
                    is_orphan, is_unlinked, has_conflicting_facts, service_view
                FROM \(customers)
                UNION ALL
                SELECT DISTINCT f.customer_id, \(sql.null(.text)), \(sql.null(.text)), \(sql.null(.timestamp)),
                    'production', \(sql.null(.timestamp)), TRUE, FALSE, FALSE, FALSE
                FROM \(facts) AS f
                WHERE NOT EXISTS (SELECT 1 FROM \(customers) AS c WHERE c.customer_id = f.customer_id)
                """)
        let activity = SQLStep(
            name: "activity", spec: "§4, §8.18, §8.20–8.24",
            mirrors:
                "CustomerActivity.fold and FlagFacts (Stages/Classify/CustomerActivity.swift, Stages/Classify/FlagFacts+Activity.swift)",
            query: """
                SELECT
                    customer_id,
                    \(any("product_type <> 'consumable'")) AS has_durable,
                    \(any("product_type <> 'consumable' AND revoked")) AS has_revoked_durable,
                    \(any("impossible_dates")) AS has_impossible_transaction,
                    \(any("in_conflict")) AS has_conflicting_duplicate,
                    \(any("is_current")) AS any_current,
                    \(all("through_grace")) AS all_current_through_grace,
                    \(all("ownership_type = 'family_shared'")) AS all_current_family_shared,
                    \(any("is_current AND product_type IN ('auto_renewable', 'non_renewing') AND ownership_type <> 'family_shared' AND NOT is_promotional")) AS current_purchased_subscription
                FROM \(facts)
                GROUP BY customer_id
                """)
        let latest = SQLStep(
            name: "latest_renewable", spec: "§8.19",
            mirrors: "CustomerActivity.isLater (Stages/Classify/CustomerActivity.swift)",
            query: """
                SELECT customer_id, renewal_state FROM (
                    SELECT customer_id, renewal_state, ROW_NUMBER() OVER (
                        PARTITION BY customer_id
                        ORDER BY purchase_date DESC, transaction_id DESC, COALESCE(renewal_state, '') DESC
                    ) AS place
                    FROM \(facts)
                    WHERE product_type = 'auto_renewable'
                ) AS ranked
                WHERE place = 1
                """)
        let joined = SQLStep(
            name: "customer_facts", spec: "§8.14",
            mirrors:
                "FlagFacts.init (Stages/Classify/FlagFacts+Activity.swift); a customer without transactions has none",
            query: """
                SELECT
                    e.*,
                    a.customer_id IS NOT NULL AS has_transaction,
                    COALESCE(a.has_durable, FALSE) AS has_durable,
                    COALESCE(a.has_revoked_durable, FALSE) AS has_revoked_durable,
                    COALESCE(a.has_impossible_transaction, FALSE) AS has_impossible_transaction,
                    COALESCE(a.has_conflicting_duplicate, FALSE) AS has_conflicting_duplicate,
                    COALESCE(a.any_current, FALSE) AS any_current,
                    COALESCE(a.all_current_through_grace, FALSE) AS all_current_through_grace,
                    COALESCE(a.all_current_family_shared, FALSE) AS all_current_family_shared,
                    COALESCE(a.current_purchased_subscription, FALSE) AS current_purchased_subscription,
                    COALESCE(l.renewal_state = 'in_billing_retry', FALSE) AS latest_renewable_in_billing_retry
                FROM everyone AS e
                LEFT JOIN activity AS a ON a.customer_id = e.customer_id
                LEFT JOIN latest_renewable AS l ON l.customer_id = e.customer_id
                """)
        return SQLStep.query(
            [
                everyone, activity, latest, joined, rules.answersSQL(sql, customers: "customer_facts"),
                rules.classesSQL(sql, answered: "answers"),
            ],
            "SELECT * FROM classes")
    }

    /// Whether any row holds `condition` (portable: not every dialect has BOOL_OR).
    private static func any(_ condition: String) -> String {
        "MAX(CASE WHEN \(condition) THEN 1 ELSE 0 END) = 1"
    }

    /// Whether every current row holds `condition`, and there is one.
    private static func all(_ condition: String) -> String {
        "COALESCE(MIN(CASE WHEN is_current THEN (CASE WHEN \(condition) THEN 1 ELSE 0 END) END) = 1, FALSE)"
    }
}
