import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Google Play's earnings report as a source: a paid app's charge a copy sold, its full
/// refund a copy returned, fees and taxes the same orders' other money.
@Suite struct GooglePlayEarningsReportTests {
    /// The classic 19 columns, then the ones a December 2024 report adds.
    static let header =
        "Description,Transaction Date,Transaction Time,Tax Type,Transaction Type,Refund Type,Product Title,"
        + "Product id,Product Type,Sku Id,Hardware,Buyer Country,Buyer State,Buyer Postal Code,Buyer Currency,"
        + "Amount (Buyer Currency),Currency Conversion Rate,Merchant Currency,Amount (Merchant Currency),"
        + "Base Plan ID,Offer ID,Group ID,First USD 1M Eligible,Service Fee %,Fee Description,Promotion ID"

    static func row(
        _ order: String, _ date: String, _ time: String, _ type: String = "Charge", refund: String = "",
        product: String = "0", sku: String = "", app: String = "com.example.maps", amount: String = "3.99",
        country: String = "US"
    ) -> String {
        [
            order, "\"\(date)\"", time, "", type, refund, "Maps (Maps)", app, product, sku, "a15", country, "", "",
            "USD", amount, "1.000000", "USD", amount, "", "", "", "Yes", "15", "", "",
        ].joined(separator: ",")
    }

    static func report(_ rows: String...) -> String {
        header + "\n" + rows.map { $0 + "\n" }.joined()
    }

    /// `PolicySpec`'s cutover, 2024-03-01T00:00:00Z, is 4:00:00 PM PST on Feb 29.
    @Test func chargesAndFullRefundsOfThePaidAppAreCopiesSplitAtTheCutoverSecond() throws {
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "earnings_202402_1234567890-1.csv",
                    Self.report(
                        Self.row("GPA.1", "Feb 29, 2024", "3:59:59 PM PST"),
                        Self.row("GPA.1", "Feb 29, 2024", "3:59:59 PM PST", "Google fee", amount: "-0.60"),
                        Self.row("GPA.1", "Feb 29, 2024", "3:59:59 PM PST", "Tax", amount: "0.20"),
                        Self.row("GPA.2", "Feb 29, 2024", "4:00:00 PM PST"),
                        Self.row("GPA.3", "Feb 10, 2024", "9:15:00 AM PST"),
                        Self.row("GPA.3", "Feb 12, 2024", "9:15:00 AM PST", "Charge refund", refund: "Full"),
                        Self.row("GPA.3", "Feb 12, 2024", "9:15:00 AM PST", "Google fee refund", amount: "0.60"),
                        Self.row("GPA.4", "Feb 11, 2024", "1:00:00 AM PST", amount: "0.00"),
                        Self.row("GPA.5", "Feb 11, 2024", "1:00:00 AM PST", sku: "maps.offline"),
                        Self.row("GPA.6..0", "Feb 11, 2024", "1:00:00 AM PST", product: "1", sku: "maps.monthly"),
                        Self.row("GPA.7", "Feb 11, 2024", "1:00:00 AM PST"),
                        Self.row("GPA.7", "Feb 13, 2024", "1:00:00 AM PST", "Charge refund", refund: "Partial")))
            ])
        let store = try #require(run.audit.paidCopies.stores.first)
        #expect(store.store == .googlePlay)
        #expect(store.apps == ["com.example.maps"])
        #expect(store.paidBefore == SalesPopulation.Units(paid: 3, free: 1, returned: 1))
        #expect(store.after == SalesPopulation.Units(paid: 1))
        let file = try #require(run.audit.population.files[run.path("earnings_202402_1234567890-1.csv")])
        #expect(
            file.notCounted == [
                "Google fee": 2, "tax": 1, "in-app product": 1, "in-app product or subscription": 1,
                "partial refund": 1,
            ])
        #expect(run.input("earnings_202402_1234567890-1.csv")?.format == .googlePlayEarnings)
        let orders = run.audit.population.orders
        #expect(orders["GPA.1"]?.charged == Instant(seconds: 1_709_251_199))
        #expect(orders["GPA.3"]?.refunded == true)
        #expect(orders["GPA.7"]?.refunded == false, "a partial refund leaves the buyer the app")
        #expect(orders["GPA.4"]?.paid == false)
    }

    /// A month's sales report and its earnings report list the same orders: each counts once,
    /// and the two reports are not warned about as overlapping.
    @Test func anOrderInBothReportsCountsOnce() throws {
        let sales = GooglePlaySalesReportTests.report(
            GooglePlaySalesReportTests.row("GPA.1", "2024-02-10", "1707523200"),
            GooglePlaySalesReportTests.row("GPA.2", "2024-02-11", "1707609600"))
        let earnings = Self.report(
            Self.row("GPA.1", "Feb 9, 2024", "4:00:00 PM PST"),
            Self.row("GPA.2", "Feb 12, 2024", "1:00:00 AM PST", "Charge refund", refund: "Full"),
            Self.row("GPA.8", "Feb 20, 2024", "1:00:00 AM PST"))
        let run = try AuditFixture.run([
            FixtureFile("salesreport_202402.csv", sales), FixtureFile("earnings_202402_1-1.csv", earnings),
        ])
        let store = try #require(run.audit.paidCopies.stores.first)
        #expect(store.paidBefore == SalesPopulation.Units(paid: 3, returned: 1))
        let file = try #require(run.audit.population.files[run.path("earnings_202402_1-1.csv")])
        #expect(file.notCounted == ["order in another report": 1])
        #expect(run.audit.population.overlappingFiles.isEmpty)
    }

    @Test func transactionTimesAreReadInTheZoneTheyName() {
        func instant(_ date: String, _ time: String) -> String? {
            GooglePlayEarningsRows.instant(date: date, time: time)?.iso8601
        }
        #expect(instant("Dec 1, 2019", "1:59:55 AM PST") == "2019-12-01T09:59:55Z")
        #expect(instant("Dec 1, 2019", "12:00:00 AM PST") == "2019-12-01T08:00:00Z")
        #expect(instant("Jul 4, 2024", "12:30:00 PM PDT") == "2024-07-04T19:30:00Z")
        #expect(instant("Jul 4, 2024", "10:01:02 PDT") == "2024-07-04T17:01:02Z")
        #expect(instant("Dec 31, 2024", "11:59:59 PM PST") == "2025-01-01T07:59:59Z")
        for (date, time) in [
            ("Feb 30, 2024", "1:00:00 AM PST"), ("Dec 1 2019", "1:00:00 AM PST"), ("Dec 1, 2019", "13:00:00 PM PST"),
            ("Dec 1, 2019", "1:00:00 AM CET"), ("Dec 1, 2019", "1:00 AM PST"), ("Dez 1, 2019", "1:00:00 AM PST"),
            ("Dec 1, 0000", "1:00:00 AM PST"), ("Dec 31, 9999", "11:00:00 PM PST"), ("Dec 1, 2019", "0:00:00 AM PST"),
            ("Dec +1, 2019", "1:00:00 AM PST"), ("Dec 1, 2019", "1:60:00 AM PST"),
        ] {
            #expect(instant(date, time) == nil, "\(date) \(time)")
        }
    }

    @Test func unreadableRowsAreRejectedWithLineAndColumn() throws {
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "earnings.csv",
                    Self.report(
                        Self.row("GPA.1", "2024-02-10", "1:00:00 AM PST"),
                        Self.row("GPA.2", "Feb 10, 2024", "1:00:00 AM PST", country: "USA"),
                        Self.row("", "Feb 10, 2024", "1:00:00 AM PST"),
                        Self.row("GPA.4", "Feb 10, 2024", "1:00:00 AM PST", app: ""),
                        Self.row("GPA.5", "Feb 10, 2024", "1:00:00 AM PST", "")))
            ])
        let rejections = run.rejections("earnings.csv")
        #expect(rejections.map(\.line) == [2, 3, 4, 5, 6])
        #expect(rejections.map(\.column) == [3, 12, 1, 8, 5])
        #expect(rejections[0].reason.contains("are not like 'Dec 1, 2019' and '1:59:55 AM PST'"))
    }

    @Test func theHeaderTellsItFromTheSalesReportInAnyCase() throws {
        let file = try FilePeekFixture.peek(Self.report(Self.row("GPA.1", "Feb 10, 2024", "1:00:00 AM PST")))
        #expect(try SalesReportSource.recognize(&file.peek)?.description.format == .googlePlayEarnings)
        let shouted = try FilePeekFixture.peek(
            "Description,Transaction Date,Transaction Time,Transaction Type,Product ID,Product Type\n"
                + "GPA.1,\"Feb 10, 2024\",1:00:00 AM PST,Charge,com.example.maps,0\n")
        #expect(try SalesReportSource.recognize(&shouted.peek)?.description.format == .googlePlayEarnings)
        let run = try AuditFixture.run([
            FixtureFile(
                "earnings.csv",
                "Description,Transaction Date,Transaction Time,Transaction Type,Product ID,Product Type\n"
                    + "GPA.1,\"Feb 10, 2024\",1:00:00 AM PST,Charge,com.example.maps,0\n")
        ])
        #expect(run.audit.paidCopies.stores.first?.paidBefore.paid == 1)
    }
}
