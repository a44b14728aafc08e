import Foundation
import Testing

@testable import GrandfatherCore

/// One run over every kind of customer source at once (issue 16): a canonical customers file,
/// App Store app transactions (verified, and one unverified), subscriber responses and a
/// Scheduled Data Export. Per fact the strongest source present wins (docs/Inputs.md, "Customers
/// from several sources"), and `conflicting_customer_facts` marks exactly the customers whose
/// sources disagree.
struct MixedSourcesTests {
    static let policy = PolicySpec(apple: "{\"bundle_id\": \"com.example.app\", \"environment\": \"Production\"}")

    /// An App Store app transaction of customer `id` (its `appTransactionId`) on iOS, bought at
    /// `purchased` (epoch milliseconds).
    static func appTransaction(_ id: String, version: String, purchased: Int64) -> String {
        """
        {"receiptType":"Production","bundleId":"com.example.app","originalApplicationVersion":"\(version)",\
        "originalPurchaseDate":\(purchased),"originalPlatform":"iOS","receiptCreationDate":1714521600000,\
        "appTransactionId":"\(id)"}
        """
    }

    /// A subscriber response with an original application version and purchase date, and
    /// `premium` active for life (so that grandfathered customers raise no reconciliation flag).
    static func response(_ id: String, version: String, purchased: String) -> String {
        "{\"subscriber\": {\"original_app_user_id\": \"\(id)\", \"original_application_version\": \"\(version)\", "
            + "\"original_purchase_date\": \"\(purchased)\", "
            + "\"entitlements\": {\"premium\": {\"expires_date\": null, \"product_identifier\": \"pro.lifetime\"}}}}"
    }

    // 2023-01-01T00:00:00Z and 2023-06-01T00:00:00Z, as App Store milliseconds.
    static let january: Int64 = 1_672_531_200_000
    static let june: Int64 = 1_685_577_600_000

    @Test("one run over every customer source: per fact the strongest source present, conflicts flagged")
    func precedenceAndConflicts() throws {
        let chain = try TestSigningChain.make()
        var checks = SignatureChecks()
        checks.trustedRoots = ["root.der"]
        // The one unverified app transaction is decoded JSON (rank 4).
        checks.trustDecoded = true
        // Cutover build 245 on iOS (PolicySpec): 100 is before it, 200 and 300 after.
        let verified = [
            Self.appTransaction("top-store", version: "100", purchased: Self.january),
            Self.appTransaction("all-four", version: "100", purchased: Self.january),
            Self.appTransaction("agree", version: "100", purchased: Self.january),
        ]
        let responses = [
            Self.response("top-store", version: "300", purchased: "2023-06-01T00:00:00Z"),
            Self.response("top-response", version: "100", purchased: "2023-01-01T00:00:00Z"),
            Self.response("all-four", version: "200", purchased: "2023-01-01T00:00:00Z"),
            Self.response("agree", version: "100", purchased: "2023-01-01T00:00:00Z"),
        ]
        let customers =
            "customer_id,platform,original_app_version,original_purchase_date\n"
            + "top-store,ios,300,2023-06-01T00:00:00Z\n" + "top-response,ios,300,2023-01-01T00:00:00Z\n"
            + "top-file,ios,100,2023-01-01T00:00:00Z\n" + "all-four,ios,300,2024-04-01T00:00:00Z\n"
            + "agree,ios,100,2023-01-01T00:00:00Z\n"
            // No purchase date: the unverified app transaction's stands.
            + "unverified-below-file,ios,100,\n"
        let export =
            RevenueCatSourceTests.header
            // Expired subscriptions: a store to each customer, and nothing current.
            + RevenueCatSourceTests.row(
                "2024-03-01 00:00:00", customer: "top-file", start: "2024-02-01 00:00:00",
                end: "2024-03-01 00:00:00", id: "1001")
            + RevenueCatSourceTests.row(
                "2024-03-01 00:00:00", store: "play_store", customer: "all-four", start: "2024-02-01 00:00:00",
                end: "2024-03-01 00:00:00", id: "GPA.2001")
            + RevenueCatSourceTests.row(
                "2024-03-01 00:00:00", customer: "agree", start: "2024-02-01 00:00:00", end: "2024-03-01 00:00:00",
                id: "3001")
            // Known only from the export, subscribed in Google Play.
            + RevenueCatSourceTests.row(
                "2024-05-15 00:00:00", store: "play_store", customer: "export-only", start: "2024-05-15 00:00:00",
                end: "2024-07-15 00:00:00", id: "GPA.4001")
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "app-transactions.txt",
                    try verified.map { try chain.sign(payloadJSON: $0) }.joined(separator: "\n") + "\n"),
                FixtureFile(
                    "app-transaction-decoded.json",
                    Self.appTransaction("unverified-below-file", version: "300", purchased: Self.june)),
                FixtureFile("subscribers.jsonl", responses.joined(separator: "\n") + "\n"),
                FixtureFile("customers.csv", customers),
                FixtureFile("export.csv", export),
            ],
            policy: Self.policy, binaryFiles: [("root.der", chain.rootDER)], signatures: checks)
        #expect(run.audit.rejections.map(\.reason) == [])
        #expect(run.audit.appStore?.rowsByTrust == ["verified": 3, "unsigned": 1])
        #expect(
            run.ids == [
                "agree", "all-four", "export-only", "top-file", "top-response", "top-store", "unverified-below-file",
            ]
        )

        /// The source of each fact of a customer, by the snapshot's names ("-" for none).
        func sources(_ id: String) throws -> [String] {
            let customer = try #require(run.result(id)?.customer)
            return CustomerFact.allCases.map { customer.provenance.source(of: $0)?.code ?? "-" }
        }
        func customer(_ id: String) throws -> Customer { try #require(run.result(id)?.customer) }
        // In `CustomerFact` order: platform, original_app_version, original_purchase_date,
        // environment, preorder_date, storefront.
        let store = ["app_store_verified", "app_store_verified", "app_store_verified", "app_store_verified", "-", "-"]

        // The verified App Store outranks the response and the file (both 300): version 100.
        #expect(try customer("top-store").originalAppVersion == "100")
        #expect(try customer("top-store").originalPurchaseDate?.iso8601 == "2023-01-01T00:00:00Z")
        #expect(try sources("top-store") == store)
        #expect(run.customerClass("top-store") == .grandfathered)
        #expect(run.flags("top-store") == ["conflicting_customer_facts"])

        // The response outranks the file: version 100. Its platform is only a store's, so the
        // file's counts; the environment is the file's (a response states none).
        #expect(try customer("top-response").originalAppVersion == "100")
        #expect(
            try sources("top-response") == [
                "customers_file", "revenuecat_subscriber", "revenuecat_subscriber", "customers_file", "-", "-",
            ])
        #expect(run.customerClass("top-response") == .grandfathered)
        #expect(run.flags("top-response") == ["conflicting_customer_facts"])

        // The file outranks the export, whose store (the App Store: iOS) agrees anyway.
        #expect(
            try sources("top-file") == [
                "customers_file", "customers_file", "customers_file", "customers_file", "-", "-",
            ])
        #expect(try customer("top-file").provenance.rowSource == .customersFile)
        #expect(run.customerClass("top-file") == .grandfathered)
        #expect(run.flags("top-file") == [])

        // All four disagree (versions 100, 200, 300; purchase dates; the export's Google Play
        // store against iOS, which is no conflict): the verified App Store's values decide.
        let allFour = try customer("all-four")
        #expect(allFour.originalAppVersion == "100")
        #expect(allFour.originalPurchaseDate?.iso8601 == "2023-01-01T00:00:00Z")
        #expect(allFour.platform == .ios)
        #expect(try sources("all-four") == store)
        #expect(allFour.provenance.rowSource == .appStoreVerified)
        #expect(run.customerClass("all-four") == .grandfathered)
        #expect(run.flags("all-four") == ["conflicting_customer_facts"])

        // All four agree: the same sources, no flag.
        #expect(try customer("agree").originalAppVersion == "100")
        #expect(try sources("agree") == store)
        #expect(run.customerClass("agree") == .grandfathered)
        #expect(run.flags("agree") == [])

        // Known only from the export: its store's platform, from the weakest source, no version.
        let exportOnly = try customer("export-only")
        #expect(exportOnly.platform == .android)
        #expect(exportOnly.originalAppVersion == nil)
        #expect(try sources("export-only") == ["revenuecat_export", "-", "-", "-", "-", "-"])
        #expect(exportOnly.provenance.rowSource == .exportRow)
        #expect(!exportOnly.isOrphan)
        #expect(run.customerClass("export-only") == .subscriber)
        #expect(run.flags("export-only") == ["missing_original_version"])

        // An unverified app transaction (rank 4) says 300; the file outranks it with 100. The
        // purchase date only the app transaction gives.
        let unverified = try customer("unverified-below-file")
        #expect(unverified.originalAppVersion == "100")
        #expect(unverified.originalPurchaseDate?.iso8601 == "2023-06-01T00:00:00Z")
        #expect(
            try sources("unverified-below-file") == [
                "customers_file", "customers_file", "app_store_unverified", "customers_file", "-", "-",
            ])
        #expect(unverified.provenance.rowSource == .customersFile)
        #expect(run.customerClass("unverified-below-file") == .grandfathered)
        #expect(run.flags("unverified-below-file") == ["conflicting_customer_facts"])

        // The conflicts are the purpose-made ones, and no one else's.
        let conflicting = run.ids.filter { run.flags($0).contains("conflicting_customer_facts") }
        #expect(conflicting == ["all-four", "top-response", "top-store", "unverified-below-file"])
    }
}
