import Testing

@testable import GrandfatherCore

/// The mapping of a Scheduled Data Export row onto SPEC §2's transaction fields (issue 16's
/// list; the docs/RevenueCat.md's "RevenueCat files"), on rows written in the shape of RevenueCat's
/// published v5 example.
struct ExportTransactionTests {
    /// An App Store subscription renewal as v5 writes it.
    static let renewal: [String: String] = [
        "rc_original_app_user_id": "$RCAnonymousID:87c6", "product_identifier": "pro_monthly",
        "product_duration": "P1M", "start_time": "2026-10-20 8:00:00", "end_time": "2026-11-20 08:00:00",
        "store": "app_store", "is_auto_renewable": "true", "is_sandbox": "false",
        "store_transaction_id": "2000000123", "original_store_transaction_id": "2000000100",
        "purchased_currency": "EUR", "price_in_purchased_currency": "0", "purchase_price_in_purchased_currency": "4.99",
        "entitlement_identifiers": "[\"pro\"]", "renewal_number": "3", "ownership_type": "PURCHASED",
        "updated_at": "2026-10-20 08:00:05",
    ]

    static func read(_ row: [String: String], types: [String: ProductType] = [:]) -> Result<
        ExportTransaction, ExportRowProblem
    > {
        ExportTransaction.read(TextExportRow(values: row), productTypes: types)
    }

    static func fields(_ row: [String: String]) throws -> [TransactionField: String] {
        var writer = TextFieldWriter()
        let transaction = try read(row).get()
        transaction.writeTexts(TextExportRow(values: row), into: &writer)
        return transaction.mapped(shape: .revenueCatExport).canonicalFields(writer.texts)
    }

    @Test("a renewal maps onto every canonical field it has")
    func renewalFields() throws {
        let fields = try Self.fields(Self.renewal)
        #expect(
            fields == [
                .transactionID: "2000000123", .originalTransactionID: "2000000100", .customerID: "$RCAnonymousID:87c6",
                .productID: "pro_monthly", .productType: "auto_renewable", .purchaseDate: "2026-10-20T08:00:00Z",
                .expiresDate: "2026-11-20T08:00:00Z", .ownershipType: "purchased", .environment: "production",
                .price: "4.99", .currency: "EUR",
            ])
    }

    @Test("the gross price is read when given, else the price after refunds")
    func price() throws {
        var row = Self.renewal
        row["purchase_price_in_purchased_currency"] = nil
        row["price_in_purchased_currency"] = "3.50"
        // Decimals are typed once read: the canonical form, as every report gives it.
        #expect(try Self.fields(row)[.price] == "3.5")
    }

    @Test(
        "ids repeat across renewals on Stripe and the web stores: the renewal number makes them unique",
        arguments: [
            ("stripe", "2000000123#3"), ("paddle", "2000000123#3"), ("rc_billing", "2000000123#3"),
            ("promotional", "2000000123#3"), ("app_store", "2000000123"), ("PLAY_STORE", "2000000123"),
            ("mac_app_store", "2000000123"), ("amazon", "2000000123"),
        ])
    func transactionKey(store: String, id: String) throws {
        var row = Self.renewal
        row["store"] = store
        #expect(try Self.fields(row)[.transactionID] == id)
    }

    @Test("without a renewal number, the store's id is the key")
    func noRenewalNumber() throws {
        var row = Self.renewal
        row["store"] = "stripe"
        row["renewal_number"] = nil
        #expect(try Self.fields(row)[.transactionID] == "2000000123")
    }

    @Test(
        "the product type: the policy's, else auto-renewable, a duration, an entitlement, or consumable",
        arguments: [
            ("true", "P1M", "[pro]", nil, ProductType.autoRenewable),
            ("false", "P1M", "[pro]", nil, .nonRenewing), ("False", "", "['pro']", nil, .nonConsumable),
            ("f", "", "[]", nil, .consumable), ("f", "", "", nil, .consumable),
            ("true", "P1M", "[pro]", ProductType.nonConsumable, .nonConsumable),
        ])
    func productType(
        autoRenewable: String, duration: String, entitlements: String, policy: ProductType?, expected: ProductType
    )
        throws
    {
        var row = Self.renewal
        row["is_auto_renewable"] = autoRenewable
        row["product_duration"] = duration
        row["entitlement_identifiers"] = entitlements
        let types = policy.map { ["pro_monthly": $0] } ?? [:]
        #expect(try Self.read(row, types: types).get().productType == expected)
    }

    @Test("renewal state: refunded is revoked, a grace end is grace, a billing issue is retry")
    func renewalState() throws {
        var row = Self.renewal
        row["billing_issues_detected_at"] = "2026-11-20 08:00:01"
        #expect(try Self.fields(row)[.renewalState] == "in_billing_retry")
        row["grace_period_end_time"] = "2026-12-04 08:00:00"
        let grace = try Self.fields(row)
        #expect(grace[.renewalState] == "in_grace_period")
        #expect(grace[.gracePeriodExpiresDate] == "2026-12-04T08:00:00Z")
        row["refunded_at"] = "2026-11-21 10:00:00"
        let refunded = try Self.fields(row)
        #expect(refunded[.renewalState] == "revoked")
        #expect(refunded[.revocationDate] == "2026-11-21T10:00:00Z")
    }

    @Test("sandbox and family sharing")
    func environmentAndOwnership() throws {
        var row = Self.renewal
        row["is_sandbox"] = "TRUE"
        row["ownership_type"] = "FAMILY_SHARED"
        let fields = try Self.fields(row)
        #expect(fields[.environment] == "sandbox")
        #expect(fields[.ownershipType] == "family_shared")
    }

    @Test("an end before the start is kept as written, for the impossible_dates flag")
    func endBeforeStart() throws {
        var row = Self.renewal
        row["end_time"] = "2026-10-19 08:00:00"
        #expect(try Self.fields(row)[.expiresDate] == "2026-10-19T08:00:00Z")
    }

    @Test(
        "a row that cannot be read names its column and value",
        arguments: [
            ("rc_original_app_user_id", "", "rc_original_app_user_id is missing"),
            ("store_transaction_id", "", "store_transaction_id is missing"),
            ("start_time", "", "start_time is missing"),
            ("start_time", "20/10/2026", "start_time is not a time: '20/10/2026'"),
            ("end_time", "2026-02-30 00:00:00", "end_time is not a time: '2026-02-30 00:00:00'"),
            ("is_sandbox", "yes", "is_sandbox is not a boolean: 'yes'"),
            ("entitlement_identifiers", "pro", "entitlement_identifiers is not a list: 'pro'"),
            (
                "entitlement_identifiers", "[pro, \"plus\u{A0}\"]",
                "entitlement_identifiers holds an entitlement that begins or ends with white space (U+00A0); "
                    + "values are never trimmed: '[pro, \"plus\u{A0}\"]'"
            ),
            ("renewal_number", "3rd", "renewal_number is not a whole number: '3rd'"),
            ("ownership_type", "SHARED", "ownership_type is not PURCHASED or FAMILY_SHARED: 'SHARED'"),
        ])
    func rejected(column: String, value: String, reason: String) {
        var row = Self.renewal
        row[column] = value
        guard case .failure(let problem) = Self.read(row) else {
            Issue.record("the row was read")
            return
        }
        #expect(problem.description == reason)
    }
}
