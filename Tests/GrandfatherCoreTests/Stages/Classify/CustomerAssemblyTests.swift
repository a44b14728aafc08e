import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Customers assembled from several sources (SPEC §9): per fact the strongest source that has
/// it wins, a disagreement raises `conflicting_customer_facts`, and §8.7 still holds within
/// one source.
struct CustomerAssemblyTests {
    static let day: Int64 = 86_400_000_000

    @Test("per fact, the strongest source that has it wins; a disagreement is a conflict")
    func rulesPickTheStrongest() {
        let list = Customer(id: "a", platform: .macos, originalPurchaseDate: Instant(microseconds: 5 * Self.day))
            .read(from: .customerList)
        let file = Customer(id: "a", platform: .ios, originalAppVersion: "300", storefront: "GBR").read(
            from: .customersFile)
        let store = Customer(id: "a", platform: .ios, originalAppVersion: "100").read(from: .appStoreVerified)

        let assembled = CustomerFactRules.assemble([list, file, store])
        #expect(assembled.originalAppVersion == "100")
        #expect(assembled.platform == .ios)
        #expect(assembled.storefront == "GBR")
        #expect(assembled.originalPurchaseDate == Instant(microseconds: 5 * Self.day))
        #expect(assembled.provenance.source(of: .originalAppVersion) == .appStoreVerified)
        #expect(assembled.provenance.source(of: .storefront) == .customersFile)
        #expect(assembled.provenance.source(of: .originalPurchaseDate) == .customerList)
        #expect(assembled.provenance.rowSource == .appStoreVerified)
        #expect(assembled.provenance.isAssembled)
        // The version (100 against 300) and the platform (ios against macos) disagree.
        #expect(assembled.provenance.hasConflictingFacts)

        let agreeing = CustomerFactRules.assemble([
            Customer(id: "b", platform: .ios, originalAppVersion: "100").read(from: .customersFile),
            Customer(id: "b", platform: nil, originalPurchaseDate: Instant(microseconds: Self.day))
                .read(from: .customerList),
        ])
        #expect(!agreeing.provenance.hasConflictingFacts)
        #expect(agreeing.originalPurchaseDate == Instant(microseconds: Self.day))
        #expect(agreeing.provenance.source(of: .platform) == .customersFile)
    }

    @Test("a verified app transaction outranks the customers file, which keeps §8.7 within itself")
    func appStoreOverCustomersFile() throws {
        let chain = try TestSigningChain.make()
        var checks = SignatureChecks()
        checks.trustedRoots = ["root.der"]
        let appTransaction = """
            {"receiptType":"Production","bundleId":"com.example.app","originalApplicationVersion":"100",\
            "originalPurchaseDate":1672531200000,"originalPlatform":"iOS","receiptCreationDate":1714521600000,\
            "appTransactionId":"A"}
            """
        let customers =
            "customer_id,platform,original_app_version\n"
            // A: the file says 300 (after the cutover 245), the App Store 100 (before it).
            + "A,ios,300\n"
            // B: the file alone.
            + "B,ios,100\n"
            // A again, other content: rejected within the file's source, as ever.
            + "A,ios,301\n"
        let run = try AuditFixture.run(
            [
                FixtureFile("app-transactions.txt", try chain.sign(payloadJSON: appTransaction) + "\n"),
                FixtureFile("customers.csv", customers),
            ],
            policy: PolicySpec(apple: "{\"bundle_id\": \"com.example.app\", \"environment\": \"Production\"}"),
            binaryFiles: [("root.der", chain.rootDER)], signatures: checks)

        #expect(run.customerClass("A") == .grandfathered)
        #expect(run.flags("A").contains("conflicting_customer_facts"))
        let a = try #require(run.result("A")?.customer)
        #expect(a.originalAppVersion == "100")
        #expect(a.provenance.source(of: .originalAppVersion) == .appStoreVerified)
        #expect(run.customerClass("B") == .grandfathered)
        #expect(!run.flags("B").contains("conflicting_customer_facts"))
        #expect(run.result("B")?.customer.provenance.rowSource == .customersFile)
        #expect(run.rejectedLines("customers.csv") == [4])
        #expect(run.input("customers.csv")?.rowsAccepted == 2)
    }
}
