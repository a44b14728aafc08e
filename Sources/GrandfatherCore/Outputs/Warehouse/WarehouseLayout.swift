/// The warehouse layout: the tables `grandfather normalize` writes as CSV and `grandfather sql`
/// reads (SPEC §9, "Warehouse"). Every record is as the Swift engine holds it after ingest and
/// normalising: instants in UTC, enums lower-case, defaults applied, prices as canonical
/// decimals, customers assembled from their sources. docs/Warehouse.md documents it column by column
/// from this list, and a test keeps the two equal.
public enum WarehouseLayout {
    /// A column's type, named per dialect by `WarehouseDialect`.
    public enum ColumnType: String, Sendable {
        case text, timestamp, boolean, integer
    }

    public struct Column: Sendable {
        public var name: String
        public var type: ColumnType
        public var required: Bool
        /// What the column holds, one sentence, for docs/Warehouse.md.
        public var meaning: String
        /// Where a value came from, not a fact the rules read: left out of the SQL's
        /// duplicate test.
        public var isProvenance = false
        /// Absent from folders written before it was added, which are read as they are.
        public var isNewer = false
    }

    public struct Table: Sendable {
        /// The table's name and its file's, without `.csv`.
        public var name: String
        public var columns: [Column]
        /// What a row is, for docs/Warehouse.md.
        public var meaning: String
        /// Written as numbered parts (`WarehouseLayout+Files.swift`), not one file.
        public var inParts = false

        /// The CSV header line, with its line feed.
        var header: String { columns.map(\.name).joined(separator: ",") + "\n" }

        /// Whether `header` is this table's, as this version writes it or as one before its
        /// newer columns did.
        func recognizes(_ header: [String]) -> Bool {
            header == columns.map(\.name) || header == columns.filter { !$0.isNewer }.map(\.name)
        }
        public var fileName: String { name + ".csv" }
    }

    private static func column(
        _ name: String, _ type: ColumnType, required: Bool = false, _ meaning: String
    ) -> Column {
        Column(name: name, type: type, required: required, meaning: meaning)
    }

    private static func provenance(_ name: String, _ meaning: String) -> Column {
        Column(name: name, type: .text, required: false, meaning: meaning, isProvenance: true, isNewer: true)
    }

    /// Every customer of the run (SPEC §2, §8.14, §9), as `audit` classifies it.
    public static let customers = Table(
        name: "customers",
        columns: [
            column("customer_id", .text, required: true, "The customer's id, after RevenueCat identity merges."),
            column("platform", .text, "Lower-case platform; empty when unknown (an orphan)."),
            column("original_app_version", .text, "As given, never trimmed."),
            column("original_purchase_date", .timestamp, "When the app was first bought or downloaded."),
            column("environment", .text, required: true, "`production` or `sandbox`."),
            column("preorder_date", .timestamp, "Set when the app was pre-ordered."),
            column("storefront", .text, "Country or storefront code."),
            column("is_orphan", .boolean, required: true, "Made from transactions alone (SPEC §8.14)."),
            column(
                "is_unlinked", .boolean, required: true,
                "Stands for an App Store subscription no customer identity reached (SPEC §5, `unlinked_transactions`)."),
            column(
                "has_conflicting_facts", .boolean, required: true,
                "Two sources gave this customer different facts (SPEC §9)."),
            column("facts_source", .text, "The strongest source of the customer's record; empty for an orphan."),
            column(
                "service_view", .boolean, required: true,
                "RevenueCat's subscriber response showed what it has active for this customer."),
            Column(
                name: "order_claims", type: .text, required: false,
                meaning:
                    "What became of the Google Play orders the customer claims that gave no evidence, space-separated: `not_found`, `refunded`, `claimed_twice` (SPEC §9); empty for none.",
                isNewer: true),
            Column(
                name: "licensed_only_after_cutover", type: .boolean, required: false,
                meaning:
                    "Google Play licensing said the app was licensed to the customer only at or after the cutover (SPEC §9); empty in folders written before it.",
                isNewer: true),
        ],
        meaning: "One row per customer, sources assembled, orphans included.")

    /// Which source gave each of a customer's facts (SPEC §9).
    public static let customerFactSources = Table(
        name: "customer_fact_sources",
        columns: [
            column("customer_id", .text, required: true, "The customer."),
            column("fact", .text, required: true, "A customers field, such as `original_app_version`."),
            column("source", .text, required: true, "The source that gave it, such as `app_store_verified`."),
        ],
        meaning: "One row per fact, for the customers whose facts came from several sources (the rest: `facts_source`)."
    )

    /// Every accepted transaction row (SPEC §2), exact duplicates and sandbox rows included:
    /// the SQL decides duplicates, conflicts and sandbox as the Swift engine does.
    public static let transactions = Table(
        name: "transactions",
        columns: [
            column("transaction_id", .text, required: true, "Unique per transaction; repeated by duplicates."),
            column("original_transaction_id", .text, "Ties renewals of one subscription together."),
            column("customer_id", .text, required: true, "The owner, after identity merges."),
            column("product_id", .text, required: true, "The product."),
            column(
                "product_type", .text, required: true,
                "`auto_renewable`, `non_renewing`, `non_consumable`, `consumable`."),
            column("purchase_date", .timestamp, required: true, "When it was bought."),
            column("expires_date", .timestamp, "When it expires."),
            column("revocation_date", .timestamp, "When it was refunded or revoked."),
            column("ownership_type", .text, required: true, "`purchased` or `family_shared`."),
            column("environment", .text, required: true, "`production` or `sandbox`."),
            column("price", .text, "The canonical decimal (`4.99`), kept as text so that no digit is lost."),
            column("currency", .text, "ISO 4217, upper-case."),
            column(
                "renewal_state", .text,
                "`subscribed`, `expired`, `in_billing_retry`, `in_grace_period`, `revoked`."),
            column("grace_period_expires_date", .timestamp, "End of the billing grace period."),
            column(
                "is_promotional", .boolean, required: true, "A grant a store or service made (SPEC §9), never bought."),
            Column(
                name: "term_ends", type: .timestamp, required: false,
                meaning:
                    "When a non-renewing transaction's term ends, where the run's evidence gave its product a term the policy does not (an export's `product_duration`).",
                isNewer: true),
            provenance(
                "fact_sources",
                "Which source shape gave each fact (`explain`'s \"facts from\"; the snapshot's `fact_sources`); not read by the rules."
            ),
        ],
        meaning: "One row per accepted transaction row, in input order, part after part.", inParts: true)

    /// What rows say a product unlocks (RevenueCat's `entitlement_identifiers`): a product the
    /// policy does not list grants these before SPEC §8.12's fallback.
    public static let productEntitlements = Table(
        name: "product_entitlements",
        columns: [
            column("product_id", .text, required: true, "The product."),
            column("entitlement", .text, required: true, "An entitlement a row of it names."),
        ],
        meaning: "One row per (product, entitlement) the rows named.")

    /// What RevenueCat has active at as-of, for the customers it gave a view of.
    public static let serviceEntitlements = Table(
        name: "service_entitlements",
        columns: [
            column("customer_id", .text, required: true, "The customer."),
            column("entitlement", .text, required: true, "Active at as-of in RevenueCat."),
        ],
        meaning: "One row per entitlement RevenueCat has active for a customer.")

    /// The ids RevenueCat's webhook events merged onto another customer.
    public static let mergedIDs = Table(
        name: "merged_ids",
        columns: [
            column("merged_id", .text, required: true, "The id as rows gave it."),
            column("customer_id", .text, required: true, "The customer it was merged onto."),
            column("how", .text, required: true, "`alias` or `transfer`."),
        ],
        meaning: "One row per merged id.")

    /// Every rejected row, with its place and reason (SPEC §6).
    public static let rejected = Table(
        name: "rejected",
        columns: [
            column("file", .text, required: true, "The input as given."),
            column("line", .integer, required: true, "The line the row starts on."),
            column("column", .integer, "The column, where one is to blame."),
            column("field", .text, "The field, where one is to blame."),
            column("reason", .text, required: true, "Why it was rejected."),
        ],
        meaning: "One row per rejected input row.")

    /// The tables the classification reads, in the order `schema.sql` creates them.
    public static let inputTables = [
        customers, customerFactSources, transactions, productEntitlements, serviceEntitlements, mergedIDs,
    ]

    /// Every table a normalized folder holds.
    public static let tables = inputTables + [rejected]
}

extension WarehouseLayout {
    /// Every table column by column, as docs/Warehouse.md documents it (`grandfather layout`).
    public static func markdown() -> String {
        var text = ""
        for table in tables {
            text += "\n\(table.filesTitle): \(table.meaning)\n\n"
            text += "| column | type | required | meaning |\n| --- | --- | --- | --- |\n"
            for column in table.columns {
                text +=
                    "| `\(column.name)` | \(column.type.rawValue) | \(column.required ? "yes" : "no") | \(column.meaning) |\n"
            }
        }
        return String(text.dropFirst())
    }
}
