import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore

/// Scheduled Data Exports read through the one door: recognised by header, laid out in the
/// canonical fields, folded with the other sources' rows, with redeliveries superseded.
struct RevenueCatSourceTests {
    static let header =
        "updated_at,store,rc_original_app_user_id,product_identifier,start_time,end_time,refunded_at,"
        + "store_transaction_id,renewal_number,is_auto_renewable,is_sandbox,unknown_loader_column\n"

    /// One export row in `header`'s order.
    static func row(
        _ updated: String, store: String = "app_store", customer: String, product: String = "pro.monthly",
        start: String, end: String = "", refunded: String = "", id: String, renewal: Int = 1,
        autoRenewable: String = "true", sandbox: String = "false"
    ) -> String {
        [updated, store, customer, product, start, end, refunded, id, String(renewal), autoRenewable, sandbox, "x"]
            .joined(separator: ",") + "\n"
    }

    @Test("an export is recognised by its header and read beside canonical files")
    func readsBesideCanonical() throws {
        let export =
            Self.header
            + Self.row(
                "2024-05-01 10:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "1001")
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("ann")),
            FixtureFile("export.csv", export),
        ])
        #expect(run.input("export.csv")?.format == .revenueCatExport)
        #expect(run.input("export.csv")?.kind == .transactions)
        #expect(run.customerClass("ann") == .subscriber)
        #expect(run.grants("ann") == [Grant("premium", .purchase)])
        #expect(run.result("ann")?.entitlements.first?.transactionID == "1001")
    }

    @Test("a later delivery of a transaction supersedes the earlier, across files and within one")
    func laterDeliveryWins() throws {
        let first =
            Self.header
            // Line 2: superseded by the refund in the second file.
            + Self.row(
                "2024-05-01 10:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "1001")
            // Lines 3-4: the renewal's later delivery comes first in the file.
            + Self.row(
                "2024-05-20 09:00:00", customer: "bob", start: "2024-05-02 10:00:00", end: "2024-05-10 10:00:00",
                id: "2001")
            + Self.row(
                "2024-05-02 10:00:00", customer: "bob", start: "2024-05-02 10:00:00", end: "2024-07-02 10:00:00",
                id: "2001")
        let second =
            Self.header
            + Self.row(
                "2024-05-15 08:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                refunded: "2024-05-15 08:00:00", id: "1001")
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("ann", "bob")),
            FixtureFile("day1.csv", first),
            FixtureFile("day2.csv", second),
        ])
        let day1 = try #require(run.input("day1.csv"))
        #expect(day1.rowsRead == 3)
        #expect(day1.rowsAccepted == 3)
        #expect(day1.superseded == 2)
        #expect(day1.rowsRejected == 0)
        #expect(run.input("day2.csv")?.superseded == 0)
        // The refund is what counts for ann; bob's renewal ended before as-of.
        #expect(run.flags("ann").contains("refunded"))
        #expect(run.customerClass("ann") == .lapsed)
        #expect(run.customerClass("bob") == .lapsed)
        #expect(!run.flags("ann").contains("conflicting_duplicate"))
    }

    @Test("the same delivery twice is an exact duplicate; the same time with other content conflicts")
    func sameUpdateTime() throws {
        let export =
            Self.header
            + Self.row(
                "2024-05-01 10:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "1001")
            + Self.row(
                "2024-05-01 10:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "1001")
            + Self.row(
                "2024-05-01 10:00:00", customer: "bob", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "2001")
            + Self.row(
                "2024-05-01 10:00:00", customer: "bob", start: "2024-05-01 10:00:00", end: "2024-08-01 10:00:00",
                id: "2001")
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("ann", "bob")), FixtureFile("export.csv", export),
        ])
        let report = try #require(run.input("export.csv"))
        #expect(report.exactDuplicates == 1)
        #expect(report.superseded == 0)
        #expect(!run.flags("ann").contains("conflicting_duplicate"))
        #expect(run.flags("bob").contains("conflicting_duplicate"))
    }

    @Test("a store that repeats ids across renewals keeps each renewal; a row that cannot be read supersedes nothing")
    func renewalsAndRejectedRows() throws {
        let export =
            Self.header
            // Lines 2-3: one Stripe id, two renewals: two transactions.
            + Self.row(
                "2024-04-01 00:00:00", store: "stripe", customer: "ann", start: "2024-04-01 00:00:00",
                end: "2024-05-01 00:00:00", id: "ch_1", renewal: 1)
            + Self.row(
                "2024-05-01 00:00:00", store: "stripe", customer: "ann", start: "2024-05-01 00:00:00",
                end: "2024-07-01 00:00:00", id: "ch_1", renewal: 2)
            // Line 4: bob's transaction; line 5, a later delivery with no start time, is rejected.
            + Self.row(
                "2024-05-01 10:00:00", customer: "bob", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "2001")
            + Self.row("2024-05-09 10:00:00", customer: "bob", start: "", end: "2024-07-01 10:00:00", id: "2001")
            // Line 6: a sandbox row is accepted and counted, and grants nothing.
            + Self.row(
                "2024-05-01 10:00:00", customer: "cat", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "3001", sandbox: "t")
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("ann", "bob", "cat")),
            FixtureFile("export.csv", export),
        ])
        let report = try #require(run.input("export.csv"))
        #expect(report.rowsRead == 5)
        #expect(report.rowsAccepted == 4)
        #expect(report.sandboxRows == 1)
        #expect(report.superseded == 0)
        // Both renewals are transactions of their own, and the current one grants.
        #expect(run.result("ann")?.entitlements.map(\.transactionID) == ["ch_1#2"])
        #expect(run.flags("ann").isEmpty)
        #expect(run.customerClass("bob") == .subscriber)
        let rejection = try #require(run.rejections("export.csv").first)
        #expect(rejection.line == 5)
        #expect(rejection.field == "start_time")
        #expect(rejection.column == 5)
        #expect(rejection.reason == "start_time is missing")
        #expect(run.customerClass("cat") == .new)
    }

    @Test("a gzipped export (several members, as delivered) reads as the plain export")
    func gzippedExport() throws {
        let first =
            Self.header
            + Self.row(
                "2024-05-01 10:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "1001")
            + Self.row("2024-05-09 10:00:00", customer: "bob", start: "", end: "2024-07-01 10:00:00", id: "2001")
            + Self.row(
                "2024-05-01 10:00:00", customer: "cat", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "3001", sandbox: "t")
        let second =
            Self.row(
                "2024-05-15 08:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                refunded: "2024-05-15 08:00:00", id: "1001")
            + Self.row(
                "2024-05-01 10:00:00", customer: "bob", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "2001")
        let customers = FixtureFile("customers.csv", AuditFixture.customers("ann", "bob", "cat"))
        let plain = try AuditFixture.run([customers, FixtureFile("export.csv", first + second)])
        let compressed = Gzip.member(Array(first.utf8)) + Gzip.member(Array(second.utf8))
        let gzipped = try AuditFixture.run([customers, FixtureFile("export.csv.gz", bytes: compressed)])
        #expect(GzipInputTests.outcome(gzipped) == GzipInputTests.outcome(plain))
        let report = try #require(gzipped.input("export.csv.gz"))
        #expect(report.format == .revenueCatExport)
        #expect(report.rowsRead == 5)
        #expect(report.rowsRejected == 1)
        #expect(report.superseded == 1)
        #expect(report.sandboxRows == 1)
        #expect(report.sha256 == GzipInputTests.sha256(compressed))
        #expect(report.sizeBytes == Int64(compressed.count))
        #expect(gzipped.flags("ann").contains("refunded"))
    }
}

extension RevenueCatSourceTests {
    @Test("an export's customers are customers, their platform the store's where no other source gives one")
    func customersFromTheExport() throws {
        let export =
            Self.header
            // dan buys only on Google Play; eve on Google Play and the App Store; ann is in the
            // customers file as an iOS customer and also buys on Stripe.
            + Self.row(
                "2024-05-01 10:00:00", store: "play_store", customer: "dan", start: "2024-05-01 10:00:00",
                end: "2024-07-01 10:00:00", id: "GPA.1")
            + Self.row(
                "2024-05-01 10:00:00", store: "play_store", customer: "eve", start: "2024-05-01 10:00:00",
                end: "2024-07-01 10:00:00", id: "GPA.2")
            + Self.row(
                "2024-05-02 10:00:00", store: "app_store", customer: "eve", start: "2024-05-02 10:00:00",
                end: "2024-07-02 10:00:00", id: "3001")
            + Self.row(
                "2024-05-01 10:00:00", store: "stripe", customer: "ann", start: "2024-05-01 10:00:00",
                end: "2024-07-01 10:00:00", id: "ch_1")
            // fay's only row is a sandbox one: no customer, as no orphan either (SPEC §8.8).
            + Self.row(
                "2024-05-01 10:00:00", store: "play_store", customer: "fay", start: "2024-05-01 10:00:00",
                end: "2024-07-01 10:00:00", id: "GPA.3", sandbox: "true")
        var policy = PolicySpec()
        policy.apple = "{\"default_platform\": \"ipados\"}"
        let run = try AuditFixture.run(
            [FixtureFile("customers.csv", AuditFixture.customers("ann")), FixtureFile("export.csv", export)],
            policy: policy)

        #expect(run.ids == ["ann", "dan", "eve"])
        let dan = try #require(run.result("dan")?.customer)
        #expect(dan.platform == .android)
        #expect(!dan.isOrphan)
        #expect(dan.provenance.rowSource == .exportRow)
        #expect(run.customerClass("dan") == .subscriber)
        // No version, and Android's cutover is optional: no no_cutover_for_platform.
        #expect(run.flags("dan") == ["missing_original_version"])
        // Of two stores, the Apple platform, the one the policy names for the App Store.
        #expect(run.result("eve")?.customer.platform == .ipados)
        let ann = try #require(run.result("ann")?.customer)
        #expect(ann.platform == .ios)
        #expect(ann.provenance.source(of: .platform) == .customersFile)
        #expect(!run.flags("ann").contains("conflicting_customer_facts"))
    }
}

extension RevenueCatSourceTests {
    @Test("an export written with semicolons, as older Scheduled Data Exports are, reads as with commas")
    func semicolons() throws {
        let rows = [
            Self.row(
                "2024-05-01 10:00:00", customer: "ann", start: "2024-05-01 10:00:00", end: "2024-07-01 10:00:00",
                id: "1001"),
            Self.row("2024-05-01 10:00:00", customer: "bob", start: "", id: "2001"),
        ]
        let commas = Self.header + rows.joined()
        // Every comma is a delimiter here: no value holds one.
        let semicolons = commas.replacingOccurrences(of: ",", with: ";")
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("ann")), FixtureFile("export.csv", semicolons),
        ])
        #expect(run.input("export.csv")?.format == .revenueCatExport)
        #expect(run.input("export.csv")?.rowsAccepted == 1)
        #expect(run.rejections("export.csv").map(\.reason) == ["start_time is missing"])
        #expect(run.customerClass("ann") == .subscriber)
    }
}
