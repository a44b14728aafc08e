import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Google Play's sales report as a source: one row per order, a paid-app charge a copy sold,
/// its refund a copy returned.
@Suite struct GooglePlaySalesReportTests {
    /// The January 2024 header of a real report (17 columns, then the ones added since 2022).
    static let header =
        "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Device Model,Product Title,"
        + "Product ID,Product Type,SKU ID,Currency of Sale,Item Price,Taxes Collected,Charged Amount,City of Buyer,"
        + "State of Buyer,Postal Code of Buyer,Country of Buyer,Base Plan ID,Offer ID,Group ID,First USD 1M Eligible,"
        + "Promotion ID,Coupon Value,Discount Rate,Featured Product ID"

    static func row(
        _ order: String, _ date: String, _ timestamp: String, _ status: String = "Charged", type: String = "paidapp",
        app: String = "com.example.maps", amount: String = "3.99", country: String = "US"
    ) -> String {
        [
            order, date, timestamp, status, "a15", "Maps (Maps)", app, type, "", "USD", amount, "0.00", amount, "", "",
            "", country, "", "", "", "Yes", "", "", "", "",
        ].joined(separator: ",")
    }

    static func report(_ rows: String...) -> String {
        header + "\n" + rows.map { $0 + "\n" }.joined()
    }

    /// 2024-03-01T00:00:00Z, `PolicySpec`'s cutover, is 1709251200.
    @Test func chargesAndRefundsOfThePaidAppAreCopiesSplitAtTheCutoverSecond() throws {
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "salesreport_202402.csv",
                    Self.report(
                        Self.row("GPA.1", "2024-02-29", "1709251199"), Self.row("GPA.2", "2024-03-01", "1709251200"),
                        Self.row("GPA.3", "2024-02-10", "1707523200"),
                        Self.row("GPA.3", "2024-02-10", "1707523200", "Refund"),
                        Self.row("GPA.3", "2024-02-10", "1707523200", "Refund"),
                        Self.row("GPA.4", "2024-02-11", "1707609600", amount: "0.00"),
                        Self.row("GPA.5", "2024-02-11", "1707609600", type: "inapp"),
                        Self.row("GPA.6..0", "2024-02-11", "1707609600", type: "subscription"),
                        Self.row("GPA.7", "2024-02-11", "1707609600", "Partial refund")))
            ])
        let store = try #require(run.audit.paidCopies.stores.first)
        #expect(store.store == .googlePlay)
        #expect(store.apps == ["com.example.maps"])
        #expect(store.paidBefore == SalesPopulation.Units(paid: 2, free: 1, returned: 1))
        #expect(store.after == SalesPopulation.Units(paid: 1))
        #expect(store.spanningCutover == SalesPopulation.Units())
        let file = try #require(run.audit.population.files[run.path("salesreport_202402.csv")])
        #expect(
            file.notCounted == [
                "repeated order": 1, "in-app product": 1, "subscription": 1, "partial refund": 1,
            ])
        #expect(run.input("salesreport_202402.csv")?.format == .googlePlaySales)
    }

    /// One order charged twice, on 2024-02-10 and on 2024-03-10 (`PolicySpec`'s cutover
    /// between): the order is bought once, at its earliest charge, whatever the order of the
    /// rows, of the reports, and of a sales and an earnings report. Its claimant is
    /// grandfathered (basis `date`) and the copy counts before the cutover every time; the
    /// other row is a "repeated order" in the report of the row that stands, an "order in
    /// another report" in any other.
    @Test func anOrderChargedTwiceIsBoughtAtItsEarliestChargeWhateverTheOrder() throws {
        typealias Earnings = GooglePlayEarningsReportTests
        let february = Self.row("GPA.1", "2024-02-10", "1707523200")
        let march = Self.row("GPA.1", "2024-03-10", "1710028800")
        // The same two seconds, as the earnings report writes them (Pacific time).
        let februaryPaid = Earnings.row("GPA.1", "Feb 9, 2024", "4:00:00 PM PST")
        let marchPaid = Earnings.row("GPA.1", "Mar 9, 2024", "4:00:00 PM PST")
        let claims = FixtureFile("claims.csv", "customer_id,order_number\nzz-1,GPA.1\n")
        let arrangements: [(name: String, files: [FixtureFile], counted: String, notCounted: [String: [String: Int]])] =
            [
                (
                    "one report, February first", [FixtureFile("a.csv", Self.report(february, march))], "a.csv",
                    ["a.csv": ["repeated order": 1]]
                ),
                (
                    "one report, March first", [FixtureFile("a.csv", Self.report(march, february))], "a.csv",
                    ["a.csv": ["repeated order": 1]]
                ),
                (
                    "two reports, February's first",
                    [FixtureFile("feb.csv", Self.report(february)), FixtureFile("mar.csv", Self.report(march))],
                    "feb.csv", ["feb.csv": [:], "mar.csv": ["order in another report": 1]]
                ),
                (
                    "two reports, March's first",
                    [FixtureFile("mar.csv", Self.report(march)), FixtureFile("feb.csv", Self.report(february))],
                    "feb.csv", ["feb.csv": [:], "mar.csv": ["order in another report": 1]]
                ),
                (
                    "a sales report of March, then an earnings report of February",
                    [
                        FixtureFile("sales.csv", Self.report(march)),
                        FixtureFile("earnings.csv", Earnings.report(februaryPaid)),
                    ],
                    "earnings.csv", ["sales.csv": ["order in another report": 1], "earnings.csv": [:]]
                ),
                (
                    "an earnings report of February, then a sales report of March",
                    [
                        FixtureFile("earnings.csv", Earnings.report(februaryPaid)),
                        FixtureFile("sales.csv", Self.report(march)),
                    ],
                    "earnings.csv", ["sales.csv": ["order in another report": 1], "earnings.csv": [:]]
                ),
                (
                    "an earnings report of March, then a sales report of February",
                    [
                        FixtureFile("earnings.csv", Earnings.report(marchPaid)),
                        FixtureFile("sales.csv", Self.report(february)),
                    ],
                    "sales.csv", ["sales.csv": [:], "earnings.csv": ["order in another report": 1]]
                ),
                (
                    "a sales report of February, then an earnings report of March",
                    [
                        FixtureFile("sales.csv", Self.report(february)),
                        FixtureFile("earnings.csv", Earnings.report(marchPaid)),
                    ],
                    "sales.csv", ["sales.csv": [:], "earnings.csv": ["order in another report": 1]]
                ),
            ]
        for arrangement in arrangements {
            let run = try AuditFixture.run(arrangement.files + [claims], policy: PolicySpec(basis: "date"))
            let comment = Comment(rawValue: arrangement.name)
            #expect(run.customerClass("zz-1") == .grandfathered, comment)
            #expect(run.result("zz-1")?.customer.originalPurchaseDate == Instant(seconds: 1_707_523_200), comment)
            #expect(run.audit.population.orders["GPA.1"]?.charged == Instant(seconds: 1_707_523_200), comment)
            let store = try #require(run.audit.paidCopies.stores.first, comment)
            #expect(store.paidBefore == SalesPopulation.Units(paid: 1), comment)
            #expect(store.after == SalesPopulation.Units(), comment)
            for (name, notCounted) in arrangement.notCounted {
                let file = try #require(run.audit.population.files[run.path(name)], comment)
                #expect(file.notCounted == notCounted, "\(arrangement.name): \(name)")
                #expect(file.countedRows == (name == arrangement.counted ? 1 : 0), "\(arrangement.name): \(name)")
            }
        }
    }

    @Test func aDayWithoutItsSecondSpansTheCutover() throws {
        let report =
            "Order Number,Order Charged Date,Financial Status,Product ID,Product Type,Country of Buyer\n"
            + "GPA.1,2024-03-01,Charged,com.example.maps,paidapp,US\n"
            + "GPA.2,2024-02-29,Charged,com.example.maps,Paid app,\n"
        let run = try AuditFixture.run([FixtureFile("sales.csv", report)])
        let store = try #require(run.audit.paidCopies.stores.first)
        // Google dates orders in UTC: 2024-03-01 begins at the cutover.
        #expect(store.after.paid == 1)
        #expect(store.paidBefore.paid == 1)
        #expect(store.cells.map(\.country) == [""], "a row without a country counts as unknown")
    }

    /// As Google delivers it: `salesreport_YYYYMM.zip`, the CSV inside in UTF-16.
    @Test func aZippedUTF16ReportCountsAsItsUTF8() throws {
        let report = Self.report(
            Self.row("GPA.1", "2024-02-10", "1707523200", country: "DE"), Self.row("GPA.2", "2024-03-10", "1710028800"))
        let utf16: [UInt8] =
            [0xFF, 0xFE] + report.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let zipped = try AuditFixture.run([
            FixtureFile("salesreport_202402.zip", bytes: Zip.archive([("salesreport_202402.csv", utf16)]))
        ])
        let plain = try AuditFixture.run([FixtureFile("salesreport_202402.csv", report)])
        let store = try #require(zipped.audit.paidCopies.stores.first)
        #expect(store == plain.audit.paidCopies.stores.first)
        #expect(store.paidBefore.paid == 1)
        #expect(store.after.paid == 1)
        #expect(zipped.input("salesreport_202402.zip")?.format == .googlePlaySales)
        #expect(zipped.input("salesreport_202402.zip")?.rowsAccepted == 2)
    }

    @Test func newerColumnNamesAreRead() throws {
        let report =
            "Order Number,Order Charged Date,Financial Status,Package ID,Product Type\n"
            + "GPA.1,2024-01-03,Charged,com.example.maps,paidapp\n"
        let run = try AuditFixture.run([FixtureFile("sales.csv", report)])
        #expect(run.audit.paidCopies.stores.first?.apps == ["com.example.maps"])
    }

    @Test func unreadableRowsAreRejectedWithLineAndColumn() throws {
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "sales.csv",
                    Self.report(
                        Self.row("GPA.1", "03/01/2024", "1709251200"), Self.row("GPA.2", "2024-02-10", "1709251200"),
                        Self.row("GPA.3", "2024-02-10", "1707523200", country: "USA"),
                        Self.row("", "2024-02-10", "1707523200"), Self.row("GPA.5", "2024-02-10", "1707523200", app: "")
                    ))
            ])
        let rejections = run.rejections("sales.csv")
        #expect(rejections.map(\.line) == [2, 3, 4, 5, 6])
        #expect(rejections.map(\.column) == [2, 3, 17, 1, 7])
        #expect(rejections[1].reason.contains("is not Unix seconds within the Order Charged Date"))
    }

    @Test func theHeaderTellsItFromCanonicalCSV() throws {
        let file = try FilePeekFixture.peek(Self.report(Self.row("GPA.1", "2024-02-10", "1707523200")))
        #expect(try SalesReportSource.recognize(&file.peek)?.description.format == .googlePlaySales)
        let earnings = try FilePeekFixture.peek("Order Number,Financial Status\nGPA.1,Charged\n")
        #expect(try SalesReportSource.recognize(&earnings.peek) == nil)
    }

    @Test func amountsMayHoldThousandsSeparators() {
        #expect(GooglePlaySalesRows.isFree("0.00"))
        #expect(!GooglePlaySalesRows.isFree("1,234.50"))
        #expect(GooglePlaySalesRows.isFree("0,000.00"))
        #expect(!GooglePlaySalesRows.isFree(nil))
        #expect(!GooglePlaySalesRows.isFree("free"))
    }
}
