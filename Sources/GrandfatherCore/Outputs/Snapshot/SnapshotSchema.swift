/// The snapshot's tables (SPEC §6): the contract downstream queries rely on.
///
/// `PRAGMA user_version` carries `version`; bump it with every change to these statements,
/// and keep `PreviousSnapshot` reading every older version. Indexes are separate so that
/// the writer creates them after the bulk insert.
///
/// Versions: 1, the first; 2 adds `changes`, in `runs` `previous_run_id`, `compare_seconds`
/// and `customers_changed` (older runs carried forward have them NULL), `product_id` and
/// `product_type` in `entitlements`, and `deciding_transactions` (with `entitlements`, the
/// transactions that decided, which `grandfather explain` reads); 3 adds `app_store_json` in
/// `runs`: how App Store signatures were treated and what those inputs held; 4 adds
/// `facts_source` in `customers` and `customer_fact_sources` (SPEC §9: which source gave each
/// fact of a customer assembled from several); 5 allows `promotional` as an entitlement
/// `source` (SPEC §9: a grant a store or service made rather than sold) and adds
/// `merged_ids` (the customer ids RevenueCat's webhook events merged onto another); 6 adds
/// `engine_json` in `runs`: which engine classified (Grandfather, or a warehouse's SQL through
/// `audit --results`); 7 adds `fact_sources` in `entitlements` and `deciding_transactions`:
/// which source shape gave each fact of the transaction (`TransactionProvenance.described`).
enum SnapshotSchema {
    static let version = 7

    /// The columns of `runs`, in table order: a new version only appends, so that rows
    /// carried forward from an older snapshot line up by name.
    static let runColumns = [
        "run_id", "started_at", "as_of", "status", "exit_code", "tool_version", "policy_name", "policy_sha256",
        "policy_json", "inputs_json", "rows_read", "rows_accepted", "rows_rejected", "customers", "ingest_seconds",
        "classify_seconds", "reports_seconds", "snapshot_seconds", "previous_run_id", "compare_seconds",
        "customers_changed", "app_store_json", "engine_json",
    ]

    /// `column` is one of `values`, written as equalities: SQLite evaluates a constant
    /// `IN (…)` list by building a temporary b-tree on every row it checks.
    static func oneOf(_ column: String, _ values: [String]) -> String {
        "(" + values.map { "\(column) = '\($0)'" }.joined(separator: " OR ") + ")"
    }

    static var tables: [String] {
        let platforms = oneOf("platform", Platform.allCases.map(\.rawValue))
        let environments = oneOf("environment", Environment.allCases.map(\.rawValue))
        let classNames = CustomerClass.allCases.map(\.rawValue)
        let classes = oneOf("class", classNames)
        let sources = oneOf("source", EntitlementSource.allCases.map(\.rawValue))
        let productTypes = oneOf("product_type", ProductType.allCases.map(\.rawValue))
        let states = oneOf("renewal_state", RenewalState.allCases.map(\.rawValue))
        let severities = oneOf("severity", Flag.Severity.allCases.map(\.rawValue))
        let factSources = oneOf("facts_source", CustomerSource.allCases.map(\.code))
        return [
            """
            CREATE TABLE flag_catalog (
                flag TEXT PRIMARY KEY NOT NULL,
                severity TEXT NOT NULL CHECK \(severities),
                explanation TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE customers (
                customer_id TEXT PRIMARY KEY NOT NULL,
                platform TEXT CHECK \(platforms),
                original_app_version TEXT,
                original_purchase_date TEXT,
                environment TEXT NOT NULL CHECK \(environments),
                preorder_date TEXT,
                storefront TEXT,
                class TEXT NOT NULL CHECK \(classes),
                is_orphan INTEGER NOT NULL CHECK (is_orphan = 0 OR is_orphan = 1),
                cutover_version TEXT,
                before_cutover_by_version INTEGER CHECK (before_cutover_by_version = 0 OR before_cutover_by_version = 1),
                before_cutover_by_date INTEGER CHECK (before_cutover_by_date = 0 OR before_cutover_by_date = 1),
                facts_source TEXT CHECK (facts_source IS NULL OR \(factSources))
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE customer_fact_sources (
                customer_id TEXT NOT NULL REFERENCES customers (customer_id),
                fact TEXT NOT NULL CHECK \(oneOf("fact", CustomerFact.allCases.map(\.code))),
                source TEXT NOT NULL CHECK \(oneOf("source", CustomerSource.allCases.map(\.code))),
                PRIMARY KEY (customer_id, fact)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE customer_flags (
                customer_id TEXT NOT NULL REFERENCES customers (customer_id),
                flag TEXT NOT NULL REFERENCES flag_catalog (flag),
                PRIMARY KEY (customer_id, flag)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE entitlements (
                customer_id TEXT NOT NULL REFERENCES customers (customer_id),
                entitlement TEXT NOT NULL,
                source TEXT NOT NULL CHECK \(sources),
                transaction_id TEXT,
                expires_date TEXT,
                product_id TEXT,
                product_type TEXT CHECK (product_type IS NULL OR \(productTypes)),
                fact_sources TEXT,
                CHECK ((source = 'grandfathered') = (transaction_id IS NULL)),
                CHECK ((transaction_id IS NULL) = (product_id IS NULL) AND (product_id IS NULL) = (product_type IS NULL))
            )
            """,
            """
            CREATE TABLE deciding_transactions (
                customer_id TEXT NOT NULL REFERENCES customers (customer_id),
                transaction_id TEXT NOT NULL,
                product_id TEXT,
                product_type TEXT NOT NULL CHECK \(productTypes),
                family_shared INTEGER CHECK (family_shared IS NULL OR family_shared = 0 OR family_shared = 1),
                purchase_date TEXT,
                renewal_state TEXT CHECK (renewal_state IS NULL OR \(states)),
                is_current INTEGER NOT NULL CHECK (is_current = 0 OR is_current = 1),
                current_until TEXT,
                through_grace INTEGER NOT NULL CHECK (through_grace = 0 OR through_grace = 1),
                fact_sources TEXT,
                CHECK (is_current = 1 OR (current_until IS NULL AND through_grace = 0)),
                PRIMARY KEY (customer_id, transaction_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE rejected_rows (
                file TEXT NOT NULL,
                line INTEGER NOT NULL CHECK (line >= 1),
                "column" INTEGER,
                field TEXT,
                reason TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE runs (
                run_id TEXT PRIMARY KEY NOT NULL,
                started_at TEXT NOT NULL,
                as_of TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status = 'ok' OR status = 'data_quality_threshold_exceeded'),
                exit_code INTEGER NOT NULL,
                tool_version TEXT NOT NULL,
                policy_name TEXT,
                policy_sha256 TEXT NOT NULL,
                policy_json TEXT NOT NULL,
                inputs_json TEXT NOT NULL,
                rows_read INTEGER NOT NULL,
                rows_accepted INTEGER NOT NULL,
                rows_rejected INTEGER NOT NULL,
                customers INTEGER NOT NULL,
                ingest_seconds REAL NOT NULL,
                classify_seconds REAL NOT NULL,
                reports_seconds REAL NOT NULL,
                snapshot_seconds REAL NOT NULL,
                previous_run_id TEXT,
                compare_seconds REAL,
                customers_changed INTEGER,
                app_store_json TEXT,
                engine_json TEXT,
                CHECK (rows_read = rows_accepted + rows_rejected)
            )
            """,
            """
            CREATE TABLE changes (
                customer_id TEXT PRIMARY KEY NOT NULL,
                from_class TEXT CHECK (from_class IS NULL OR \(oneOf("from_class", classNames))),
                to_class TEXT CHECK (to_class IS NULL OR \(oneOf("to_class", classNames))),
                flags_added TEXT,
                flags_removed TEXT,
                entitlements_added TEXT,
                entitlements_removed TEXT,
                CHECK (from_class IS NOT NULL OR to_class IS NOT NULL)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE merged_ids (
                merged_id TEXT PRIMARY KEY NOT NULL,
                customer_id TEXT NOT NULL,
                how TEXT NOT NULL CHECK \(oneOf("how", CustomerIdentities.Merge.allCases.map(\.rawValue)))
            ) WITHOUT ROWID
            """,
        ]
    }

    // Indexes serve the lookups by customer that `explain` and the next run make. A filter on
    // class, flag or entitlement has a handful of distinct values to pick from: a full scan of
    // a million rows answers it in tens of milliseconds, while an index on such a column costs
    // every nightly run a sort (0.8 s of CPU for the three the snapshot once had, see
    // docs/Outputs.md); anyone who wants one can create it in a copy.
    static let indexes = customerIndexes + grantIndexes

    /// The indexes of the tables the snapshot file's own part writes.
    static let customerIndexes = [
        "CREATE INDEX rejected_rows_by_file ON rejected_rows (file, line)"
    ]

    /// The indexes of the tables the side file's part writes: built there, on the other
    /// core, and copied in whole with their tables.
    static let grantIndexes = [
        "CREATE INDEX entitlements_by_customer ON entitlements (customer_id)"
    ]
}
