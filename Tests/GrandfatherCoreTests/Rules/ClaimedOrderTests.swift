import Foundation
import Testing

@_spi(TestHooks) @testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §9, claimed orders: a Google Play order a customer claims, weighed against the
/// store's sales and earnings reports, dates the customer's purchase or raises a flag.
@Suite struct ClaimedOrderTests {
    typealias Sales = GooglePlaySalesReportTests

    /// `PolicySpec`'s cutover is 2024-03-01T00:00:00Z (1709251200).
    static let report = Sales.report(
        Sales.row("GPA.1", "2024-02-10", "1707523200"), Sales.row("GPA.2", "2024-02-11", "1707609600"),
        Sales.row("GPA.2", "2024-02-11", "1707609600", "Refund"), Sales.row("GPA.3", "2024-03-02", "1709337600"),
        Sales.row("GPA.4", "2024-02-12", "1707696000"), Sales.row("GPA.5", "2024-02-29", "1709251190"),
        Sales.row("GPA.6", "2024-02-13", "1707782400", type: "inapp"))

    static let customers = """
        customer_id,platform,original_purchase_date
        alice,android,
        bob,android,
        carol,android,
        dan,android,
        erin,android,
        frank,android,
        gina,android,2024-01-05T00:00:00Z
        hank,android,

        """

    static let claims = """
        customer_id,order_number
        alice, GPA.1
        bob,GPA.2
        carol,GPA.9
        dan,GPA.4
        erin,GPA.4
        frank,GPA.3
        gina,GPA.5
        ivan,GPA.7
        ivan,GPA.7
        hank,GPA.6

        """

    static func run(basis: String = "date", claims: String = claims) throws -> FixtureRun {
        try AuditFixture.run(
            [
                FixtureFile("salesreport_202402.csv", report), FixtureFile("customers.csv", customers),
                FixtureFile("claims.csv", claims),
            ],
            policy: PolicySpec(basis: basis))
    }

    /// The flags a customer carries besides `missing_original_version`, which every Android
    /// customer without a version carries.
    static func flags(_ run: FixtureRun, _ id: String) -> [String] {
        run.flags(id).filter { $0 != "missing_original_version" }
    }

    @Test func eachClaimDatesThePurchaseOrRaisesItsFlag() throws {
        let run = try Self.run()
        // Charged before the cutover, and claimed by alice alone: alice bought then.
        #expect(run.result("alice")?.customer.originalPurchaseDate == Instant(seconds: 1_707_523_200))
        #expect(run.result("alice")?.customer.provenance.source(of: .originalPurchaseDate) == .googlePlayOrder)
        #expect(run.customerClass("alice") == .grandfathered)
        #expect(Self.flags(run, "alice").isEmpty)
        #expect(Self.flags(run, "bob") == ["order_refunded"])
        #expect(run.customerClass("bob") == .new)
        #expect(Self.flags(run, "carol") == ["order_not_found"])
        #expect(Self.flags(run, "dan") == ["order_claimed_twice"] && Self.flags(run, "erin") == ["order_claimed_twice"])
        #expect(run.customerClass("dan") == .new && run.result("dan")?.customer.originalPurchaseDate == nil)
        // Bought after the cutover: a date, and no grandfathering.
        #expect(run.customerClass("frank") == .new)
        #expect(run.result("frank")?.customer.originalPurchaseDate == Instant(seconds: 1_709_337_600))
        // The store's record outranks the team's date, and the two disagree.
        #expect(run.result("gina")?.customer.originalPurchaseDate == Instant(seconds: 1_709_251_190))
        #expect(Self.flags(run, "gina").contains("conflicting_customer_facts"))
        #expect(Self.flags(run, "gina").contains("bought_just_before_cutover"))
        // A claim of an in-app product's order: no paid-app order of that number.
        #expect(Self.flags(run, "hank") == ["order_not_found"])
    }

    /// A claimant no other file names is a customer: on Android, as the store says.
    @Test func aClaimantOfNoOtherFileIsACustomerOnAndroid() throws {
        let run = try Self.run()
        let ivan = try #require(run.result("ivan"))
        #expect(ivan.customer.platform == .android)
        #expect(ivan.customer.provenance.rowSource == .googlePlayOrder)
        #expect(Self.flags(run, "ivan") == ["order_not_found"])
        #expect(run.input("claims.csv")?.exactDuplicates == 1)
        #expect(run.input("claims.csv")?.format == .claimedOrders)
    }

    /// The customers file may carry the claim in a column of its own, `order_number`; claims
    /// of both files are weighed together. As in a claims file, the ASCII blanks around a
    /// hand-copied number are no part of it, and a cell of blanks alone claims nothing.
    @Test func aCustomersFileColumnClaimsAsAClaimsFileDoes() throws {
        let customers = """
            customer_id,platform,order_number
            alice,android,\u{20}GPA.1\t
            bob,android,\u{20}\u{20}
            carol,android,GPA.4
            carol,android,GPA.4

            """
        let run = try AuditFixture.run(
            [
                FixtureFile("salesreport_202402.csv", Self.report), FixtureFile("customers.csv", customers),
                FixtureFile("claims.csv", "customer_id,order_number\ndan,GPA.4\n"),
            ],
            policy: PolicySpec(basis: "either"))
        #expect(run.customerClass("alice") == .grandfathered)
        #expect(run.result("alice")?.customer.originalPurchaseDate == Instant(seconds: 1_707_523_200))
        #expect(Self.flags(run, "bob").isEmpty && run.customerClass("bob") == .new)
        #expect(
            Self.flags(run, "carol") == ["order_claimed_twice"] && Self.flags(run, "dan") == ["order_claimed_twice"])
        #expect(run.input("customers.csv")?.exactDuplicates == 1)
    }

    /// A `normalize` folder keeps what the claims and licensing verdicts gave: read back, every
    /// customer has the same date, its source and the same flags, though the folder holds no
    /// claim, no report and no verdict.
    @Test func aNormalizeFolderReadBackKeepsWhatTheClaimsGave() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grandfather-claims-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = [
            FixtureFile("salesreport_202402.csv", Self.report), FixtureFile("customers.csv", Self.customers),
            FixtureFile("claims.csv", Self.claims), FixtureFile("verdicts.jsonl", LicensingVerdictTests.verdicts),
        ]
        let run = try AuditFixture.run(files, policy: PolicySpec(basis: "date"), in: folder)
        let policy = try PolicyLoader.load(path: folder.appendingPathComponent("policy.json").path)
        let settings = AuditSettings(policy: policy, asOf: run.audit.asOf)
        let out = folder.appendingPathComponent("normalized")
        _ = try NormalizedFolder.write(
            settings, inputs: files.map { folder.appendingPathComponent($0.name).path }, out: out.path, progress: nil,
            hooks: TestHooks())
        let tables = try FileManager.default.contentsOfDirectory(atPath: out.path)
            .filter { $0.hasSuffix(".csv") && $0 != "rejected.csv" }.sorted().map {
                out.appendingPathComponent($0).path
            }
        let again = try Pipeline.audits([settings], inputs: tables, hooks: TestHooks())[0]
        #expect(again.customers.map(\.customer.id) == run.audit.customers.map(\.customer.id))
        for (first, second) in zip(run.audit.customers, again.customers) {
            #expect(second.flags == first.flags, "\(first.customer.id)")
            #expect(second.customer.originalPurchaseDate == first.customer.originalPurchaseDate)
            #expect(
                second.customer.provenance.source(of: .originalPurchaseDate)
                    == first.customer.provenance.source(of: .originalPurchaseDate), "\(first.customer.id)")
        }
        #expect(again.customers.contains { $0.flags.contains(.orderClaimedTwice) })
        #expect(again.customers.contains { $0.flags.contains(.licensedOnlyAfterCutover) })
        #expect(again.customers.contains { $0.customer.provenance.source(of: .originalPurchaseDate) == .playLicensing })
    }

    @Test func emptyFieldsAreRejectedWithTheirColumn() throws {
        let run = try Self.run(claims: "order_number,customer_id\nGPA.1,\n ,bob\nGPA.2,bob\nGPA.3,a\u{0}b\n")
        let rejections = run.rejections("claims.csv")
        #expect(rejections.map(\.line) == [2, 3, 5])
        #expect(rejections.map(\.column) == [2, 1, 2])
        #expect(Self.flags(run, "bob") == ["order_refunded"])
    }
}
