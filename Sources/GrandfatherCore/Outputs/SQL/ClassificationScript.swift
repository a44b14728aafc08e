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
    static let workTables = ["customer_activity", "repeated_ids", "transaction_facts", "customer_verdicts"]

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
        let (activity, repeated, facts, verdicts) = (
            sql.workTable(workTables[0]), sql.workTable(workTables[1]), sql.workTable(workTables[2]),
            sql.workTable(workTables[3])
        )
        // Two passes over the transactions: the activity (which gathers the ids' fingerprints
        // too), then the facts of the rows read one by one, which needs the repeated ids.
        statements.append(sql.createWorkTable(activity, customerActivity(rules, sql)))
        statements.append(sql.createWorkTable(repeated, repeatedIDs(sql, activity: activity)))
        statements.append(sql.createWorkTable(facts, transactionFacts(rules, sql, repeated: repeated)))
        statements.append(
            sql.createWorkTable(verdicts, customerVerdicts(rules, sql, activity: activity, facts: facts)))
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

    /// The columns of a transaction that are facts, which later steps read (`fact_sources`,
    /// where each came from, is none): among them, those SPEC §8.23's comparison reads
    /// (`DuplicateRules.columns`).
    private static let factColumns = WarehouseLayout.transactions.columns.filter { !$0.isProvenance }.map(\.name)

    /// The columns the activity and currency rules read.
    private static let activityColumns = [
        "customer_id", "transaction_id", "product_id", "product_type", "purchase_date", "expires_date",
        "revocation_date", "ownership_type", "renewal_state", "grace_period_expires_date", "is_promotional",
        "term_ends",
    ]

    /// Production rows of `columns` (SPEC §8.8: sandbox transactions count for nobody).
    private static func production(_ sql: SQLContext, _ columns: [String]) -> SQLStep {
        SQLStep(
            name: "production", spec: "§8.8", mirrors: "ActivityRules.counts (Rules/ActivityRules.swift)",
            query: """
                SELECT \(columns.joined(separator: ", "))
                FROM \(sql.tables.transactions)
                WHERE environment = 'production'
                """)
    }

    /// The fingerprints of the ids more than one production row holds (and of ids that only
    /// share a fingerprint): where SPEC §8.23's duplicates can be. A fingerprint is 8 bytes,
    /// where grouping the ids themselves would hold every id's text at once. The activity pass
    /// gathered every production row's fingerprint by customer, so this reads no transaction:
    /// a pass of its own over them cost DuckDB 2.6 s of 15.5 at a million customers, this 0.9.
    private static func repeatedIDs(_ sql: SQLContext, activity: String) -> String {
        let ids = SQLStep(
            name: "production_ids", spec: "§8.8, §8.23",
            mirrors: "TransactionFingerprints (Stages/Classify/TransactionFingerprints.swift), by the id alone",
            query: sql.fingerprints(in: "id_fingerprints", of: activity, as: "id_fingerprint"))
        return SQLStep.query(
            [ids], "SELECT id_fingerprint FROM production_ids GROUP BY id_fingerprint HAVING COUNT(*) > 1")
    }

    /// What each customer's production transactions add up to, in one pass over them: the
    /// facts the classes and flags read (SPEC §4, §8.18, §8.20–8.24) and the renewal state of
    /// the latest auto-renewable (§8.19). Each fact is an any or an all, so an exact duplicate
    /// changes none of them. It also gathers the fingerprint of every row's id, which
    /// `repeatedIDs` reads in place of a pass of its own.
    private static func customerActivity(_ rules: AuditRules, _ sql: SQLContext) -> String {
        let state = "COALESCE(renewal_state, '')"
        let latest = sql.latest(
            state, by: ["purchase_date", "transaction_id", state], where: "product_type = 'auto_renewable'")
        return SQLStep.query(
            [production(sql, activityColumns), rules.currencySQL(sql, rows: "production")],
            """
            SELECT
                customer_id,
                \(any("product_type <> 'consumable'")) AS has_durable,
                \(any("product_type <> 'consumable' AND revoked")) AS has_revoked_durable,
                \(any(rules.impossibleDatesSQL(sql))) AS has_impossible_transaction,
                \(any("is_current")) AS any_current,
                \(all("through_grace")) AS all_current_through_grace,
                \(all("ownership_type = 'family_shared'")) AS all_current_family_shared,
                \(any("is_current AND product_type IN ('auto_renewable', 'non_renewing') AND ownership_type <> 'family_shared' AND NOT is_promotional")) AS current_purchased_subscription,
                -- The latest auto-renewable's state: SPEC §8.19; mirrors ActivityRules.order.
                \(latest) AS latest_renewal_state,
                \(sql.collect(fingerprint: sql.fingerprint("transaction_id"))) AS id_fingerprints
            FROM currency
            GROUP BY customer_id
            """)
    }

    /// The production rows later steps read one by one, with their currency (SPEC §4, §8.11):
    /// every current transaction, for its grants, and every row whose id may repeat, for
    /// SPEC §8.23's comparison. What the rules ask of every row is asked once per customer,
    /// by `customerActivity`; a copy of every row would be written to be read once.
    private static func transactionFacts(_ rules: AuditRules, _ sql: SQLContext, repeated: String) -> String {
        SQLStep.query(
            [production(sql, factColumns), rules.currencySQL(sql, rows: "production")],
            // A join, not an IN in the select list: the repeated ids are few, and each once.
            """
            SELECT currency.*, repeated.id_fingerprint IS NOT NULL AS may_repeat
            FROM currency
            LEFT JOIN \(repeated) AS repeated ON repeated.id_fingerprint = \(sql.fingerprint("currency.transaction_id"))
            WHERE currency.is_current OR repeated.id_fingerprint IS NOT NULL
            """)
    }

    /// Every customer once, with the facts its flags read, its answers and its class.
    private static func customerVerdicts(
        _ rules: AuditRules, _ sql: SQLContext, activity: String, facts: String
    ) -> String {
        let everyone = SQLStep(
            name: "everyone", spec: "§2, §8.14",
            mirrors:
                "Ledger (a record, or the orphan a customer's transactions make), Customer.orphan and FlagFacts.init (a customer without transactions has none)",
            // One join both ways: a customer without transactions, and one of transactions alone.
            query: """
                SELECT
                    COALESCE(c.customer_id, a.customer_id) AS customer_id,
                    c.platform, c.original_app_version, c.original_purchase_date,
                    COALESCE(c.environment, 'production') AS environment, c.preorder_date,
                    COALESCE(c.is_orphan, TRUE) AS is_orphan,
                    COALESCE(c.is_unlinked, FALSE) AS is_unlinked,
                    COALESCE(c.has_conflicting_facts, FALSE) AS has_conflicting_facts,
                    COALESCE(c.service_view, FALSE) AS service_view,
                    COALESCE(c.order_claims, '') AS order_claims,
                    COALESCE(c.licensed_only_after_cutover, FALSE) AS licensed_only_after_cutover,
                    a.customer_id IS NOT NULL AS has_transaction,
                    COALESCE(a.has_durable, FALSE) AS has_durable,
                    COALESCE(a.has_revoked_durable, FALSE) AS has_revoked_durable,
                    COALESCE(a.has_impossible_transaction, FALSE) AS has_impossible_transaction,
                    COALESCE(a.any_current, FALSE) AS any_current,
                    COALESCE(a.all_current_through_grace, FALSE) AS all_current_through_grace,
                    COALESCE(a.all_current_family_shared, FALSE) AS all_current_family_shared,
                    COALESCE(a.current_purchased_subscription, FALSE) AS current_purchased_subscription,
                    COALESCE(a.latest_renewal_state = 'in_billing_retry', FALSE) AS latest_renewable_in_billing_retry
                FROM \(sql.tables.customers) AS c
                FULL JOIN \(activity) AS a ON a.customer_id = c.customer_id
                """)
        let conflicting = DuplicateRules.conflictingCustomersSQL(facts: facts)
        let joined = SQLStep(
            name: "customer_facts", spec: "§8.14, §8.23",
            mirrors: "FlagFacts.init (Stages/Classify/FlagFacts+Activity.swift)",
            query: """
                SELECT e.*, k.customer_id IS NOT NULL AS has_conflicting_duplicate
                FROM everyone AS e
                LEFT JOIN conflicting_customers AS k ON k.customer_id = e.customer_id
                """)
        return SQLStep.query(
            [
                everyone, conflicting, joined, rules.answersSQL(sql, customers: "customer_facts"),
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
