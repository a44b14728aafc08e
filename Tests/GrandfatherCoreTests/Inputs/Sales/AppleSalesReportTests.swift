import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// App Store Connect's Summary Sales Report as a source: what each row counts, what the run
/// says of each file, and the copies set beside the customers found.
@Suite struct AppleSalesReportTests {
    static let header = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
        "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
        "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period", "Category",
        "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client", "Order Type",
    ]

    /// A row of the 28-column report, with the fields a test varies.
    static func row(
        _ type: String, _ units: String, _ begin: String, _ end: String? = nil, country: String = "US",
        price: String = "3.99", promo: String = "", app: String = "111", sku: String = "maps", cmb: String = ""
    ) -> String {
        [
            "APPLE", "US", sku, "Dev Ltd", "Maps", "1.0", type, units, "2.79", begin, end ?? begin, "USD", country,
            "USD",
            app, price, promo, "", "", "", "Navigation", cmb, "iPhone", "iOS", "", "", "", "",
        ].joined(separator: "\t")
    }

    static func report(_ rows: String...) -> String {
        header.joined(separator: "\t") + "\n" + rows.map { $0 + "\n" }.joined()
    }

    /// The cutover of `PolicySpec`: 2024-03-01T00:00:00Z, which is 2024-02-29 16:00 in Pacific Time.
    static let policy = PolicySpec()

    @Test func productTypesTellCopiesFromWhatIsNoCopy() {
        for identifier in ["1", "1F", "1T", "F1", "1E", "1EP", "1EU"] {
            #expect(AppleProductType(identifier: identifier) == .app, "\(identifier)")
        }
        #expect(AppleProductType(identifier: "7F") == .notCounted("update"))
        #expect(AppleProductType(identifier: "3F") == .notCounted("re-download"))
        #expect(AppleProductType(identifier: "IAY") == .notCounted("in-app purchase"))
        #expect(AppleProductType(identifier: "IA3") == .notCounted("restored in-app purchase"))
        #expect(AppleProductType(identifier: "1-B") == .notCounted("app bundle"))
        #expect(AppleProductType(identifier: "ZZ") == .notCounted("product type ZZ (not known)"))
    }

    @Test func unitsAreWholeDecimals() {
        #expect(AppleSalesRows.units("12") == 12)
        #expect(AppleSalesRows.units("12.00") == 12)
        #expect(AppleSalesRows.units("-3") == -3)
        #expect(AppleSalesRows.units("1.5") == nil)
        #expect(AppleSalesRows.units("12.") == nil)
        #expect(AppleSalesRows.units("x") == nil)
        #expect(AppleSalesRows.units(nil) == nil)
    }

    /// Report days run midnight to midnight Pacific Time, through the clock changes.
    @Test func reportDaysArePacificTime() throws {
        let winter = try #require(AppleSalesRows.day("01/15/2025"))
        #expect(winter.start.iso8601 == "2025-01-15T08:00:00Z")
        #expect(winter.next.iso8601 == "2025-01-16T08:00:00Z")
        #expect(winter.month == "2025-01")
        #expect(winter.text == "2025-01-15")
        // 2025-03-09: clocks go forward, a day of 23 hours.
        let spring = try #require(AppleSalesRows.day("03/09/2025"))
        #expect(spring.start.iso8601 == "2025-03-09T08:00:00Z")
        #expect(spring.next.iso8601 == "2025-03-10T07:00:00Z")
        #expect(AppleSalesRows.day("2025-01-15") == nil)
        #expect(AppleSalesRows.day("02/30/2025") == nil)
        #expect(AppleSalesRows.day("1/5/2025") == nil)
        #expect(AppleSalesRows.day("+1/05/2025") == nil)
        #expect(AppleSalesRows.day("01/05/0000") == nil)
    }

    @Test func periodsFallBeforeAcrossOrAfterTheCutover() throws {
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "sales.txt",
                    Self.report(
                        Self.row("1F", "5", "02/28/2024"),  // ends 2024-02-29T08:00Z: before
                        Self.row("1F", "2", "02/29/2024"),  // holds 2024-03-01T00:00Z
                        Self.row("1F", "3", "02/01/2024", "02/29/2024"),  // a month holding it
                        Self.row("1F", "4", "03/01/2024"),  // after
                        Self.row("1F", "-1", "02/10/2024", country: "GB", price: "-3.99"),
                        Self.row("1F", "6", "02/11/2024", price: "0"),
                        Self.row("1F", "1", "02/11/2024", promo: "PRESS"),
                        Self.row("7F", "40", "02/11/2024", price: "0")))
            ], policy: Self.policy)
        let store = try #require(run.audit.paidCopies.stores.first)
        #expect(store.store == .appStore)
        #expect(store.paidApps == ["111"])
        #expect(store.paidBefore == SalesPopulation.Units(paid: 5, free: 7, returned: 1))
        #expect(store.spanningCutover == SalesPopulation.Units(paid: 5))
        #expect(store.after == SalesPopulation.Units(paid: 4))
        #expect(store.months == "2024-02"..."2024-03")
        let input = try #require(run.input("sales.txt"))
        #expect(input.kind == .sales)
        #expect(input.format == .appleSales)
        #expect((input.rowsRead, input.rowsAccepted, input.rowsRejected) == (8, 8, 0))
        let file = try #require(run.audit.population.files[run.path("sales.txt")])
        #expect(file.countedRows == 7)
        #expect(file.notCounted == ["update": 1])
        #expect(file.days == "2024-02-01"..."2024-03-01")
    }

    @Test func unreadableRowsAreRejectedWithLineAndColumn() throws {
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "sales.txt",
                    Self.report(
                        Self.row("1F", "1.5", "02/01/2024"), Self.row("1F", "1", "2024-02-01"),
                        Self.row("1F", "1", "02/02/2024", "02/01/2024"),
                        Self.row("1F", "1", "02/01/2024", country: "USA"),
                        Self.row("", "1", "02/01/2024"), Self.row("1F", "1", "02/01/2024", app: ""),
                        Self.row("IAY", "x", "nonsense"), Self.row("1F", "-2", "02/01/2024", cmb: "CMB-C")))
            ], policy: Self.policy)
        let rejections = run.rejections("sales.txt")
        #expect(rejections.map(\.line) == [2, 3, 4, 5, 6, 7])
        #expect(rejections.map(\.column) == [8, 10, 11, 13, 7, 15])
        #expect(rejections[0].reason == "Units '1.5' is not a whole number")
        #expect(rejections[1].reason == "Begin Date '2024-02-01' is not MM/DD/YYYY")
        let input = try #require(run.input("sales.txt"))
        #expect((input.rowsRead, input.rowsAccepted, input.rowsRejected) == (8, 2, 6))
        // An in-app row is not read further; a bundle's credit is no return.
        let file = try #require(run.audit.population.files[run.path("sales.txt")])
        #expect(file.notCounted == ["in-app purchase": 1, "bundle credit": 1])
        #expect(run.audit.population.units.isEmpty)
    }

    /// Issue 51, item 16: the title every report shows passes the one text rule (a value: a
    /// tab is kept, a control character is not), so no escape sequence reaches summary.md.
    @Test func aTitleWithAControlCharacterIsRejected() throws {
        let escaped = Self.row("1F", "1", "02/01/2024").replacingOccurrences(of: "\tMaps\t", with: "\tMaps\u{1B}[2J\t")
        let run = try AuditFixture.run(
            [FixtureFile("sales.txt", Self.report(escaped, Self.row("1F", "2", "02/02/2024")))], policy: Self.policy)
        let rejections = run.rejections("sales.txt")
        #expect(rejections.map(\.line) == [2])
        #expect(rejections.first?.reason == "Title contains a control character (U+001B)")
        #expect(run.audit.population.copiesCounted == 2)
    }

    @Test func copiesAreSetBesideTheCustomersGrandfatheredByMonthAndCountry() throws {
        var policy = Self.policy
        policy.basis = "date"
        policy.versions = nil
        let customers = """
            customer_id,platform,original_purchase_date,storefront
            a,ios,2024-01-10T12:00:00Z,USA
            b,ipados,2024-01-20T12:00:00Z,GBR
            c,macos,2023-06-01T12:00:00Z,US
            d,ios,2024-05-01T12:00:00Z,USA
            e,android,2024-01-10T12:00:00Z,USA

            """
        let run = try AuditFixture.run(
            [
                FixtureFile("customers.csv", customers),
                FixtureFile(
                    "sales.txt",
                    Self.report(
                        Self.row("1F", "4", "01/01/2024", "01/31/2024"),
                        Self.row("1F", "2", "01/01/2024", "01/31/2024", country: "GB"))),
            ], policy: policy)
        let store = try #require(run.audit.paidCopies.stores.first)
        // d bought after the cutover (new); e is not an App Store customer.
        #expect(store.grandfathered == 3)
        #expect(store.gap == 3)
        let cells = store.cells.map { "\($0.month) \($0.country) \($0.copies) \($0.grandfathered)" }
        #expect(cells == ["2023-06 US 0 1", "2024-01 GB 2 1", "2024-01 US 4 1"])
        let (months, countries) = PopulationSection.tables(store)
        #expect(months.map { "\($0.label) \($0.gap)" } == ["before 2024-01 -1", "2024-01 4"])
        #expect(countries.map { "\($0.label) \($0.gap)" } == ["GB 1", "US 2"])
    }

    @Test func severalAppsWaitForThePolicyToNameThePaidApp() throws {
        let files = [
            FixtureFile(
                "sales.txt",
                Self.report(
                    Self.row("1F", "4", "01/01/2024", app: "111"), Self.row("F1", "2", "01/01/2024", app: "222"),
                    Self.row("1F", "7", "01/01/2024", app: "333", sku: "other.game")))
        ]
        let unnamed = try AuditFixture.run(files, policy: Self.policy)
        let store = try #require(unnamed.audit.paidCopies.stores.first)
        #expect(store.apps == ["111", "222", "333"])
        #expect(store.paidApps.isEmpty)
        #expect(store.gap == nil)
        #expect(PopulationSection.lines(store, titles: [:]).first?.contains("sales.paid_app") == true)

        var policy = Self.policy
        policy.sales = #"{"paid_app": ["111", "222"]}"#
        let named = try AuditFixture.run(files, policy: policy)
        let paid = try #require(named.audit.paidCopies.stores.first)
        #expect(paid.paidApps == ["111", "222"])
        #expect(paid.paidBefore.paid == 6)
        #expect(named.audit.population.files[named.path("sales.txt")]?.notCounted == ["another app": 1])

        // By SKU too.
        policy.sales = #"{"paid_app": ["other.game"]}"#
        let bySKU = try AuditFixture.run(files, policy: policy)
        #expect(bySKU.audit.paidCopies.stores.first?.paidBefore.paid == 7)
    }

    @Test func theSameReportTwiceIsCountedOnceAndOverlapsAreSaid() throws {
        let monthly = Self.report(Self.row("1F", "4", "01/01/2024", "01/31/2024"))
        let daily = Self.report(Self.row("1F", "1", "01/05/2024"))
        let run = try AuditFixture.run(
            [
                FixtureFile("a.txt", monthly), FixtureFile("b.txt", monthly),
                FixtureFile("d.txt.gz", bytes: Gzip.member(Array(daily.utf8))),
            ], policy: Self.policy)
        #expect(run.audit.paidCopies.stores.first?.paidBefore.paid == 5)
        #expect(run.input("b.txt")?.exactDuplicates == 1)
        #expect(run.audit.population.files[run.path("b.txt")]?.repeats == run.path("a.txt"))
        let warnings = PopulationSection.warnings(run.audit.population)
        #expect(warnings.count == 2)
        #expect(warnings.last?.hasPrefix("\(run.path("a.txt")) and \(run.path("d.txt.gz")) cover overlapping") == true)
        let lines = PopulationSection.validationLines(run.audit.population)
        #expect(lines.contains("\(run.path("b.txt")): the same report as \(run.path("a.txt")), counted once"))
    }

    @Test func aHeaderWithoutTheCountsColumnsIsNotASalesReport() throws {
        let file = try FilePeekFixture.peek(
            "Provider\tSKU\tTitle\tUnits\n" + "APPLE\tmaps\tMaps\t3\n")
        #expect(try SalesReportSource.recognize(&file.peek) == nil)
        let real = try FilePeekFixture.peek(Self.report(Self.row("1F", "1", "01/01/2024")))
        #expect(try SalesReportSource.recognize(&real.peek)?.description.kind == .sales)
    }

    @Test func thePolicySalesSectionIsChecked() throws {
        var policy = Self.policy
        policy.sales = #"{"paid_app": []}"#
        #expect(AuditFixture.failure([], policy: policy)?.description.contains("sales.paid_app") == true)
        policy.sales = #"{"paid_apps": ["1"]}"#
        #expect(AuditFixture.failure([], policy: policy)?.description.contains("paid_apps") == true)
    }
}

/// A file written to a temporary folder and opened for recognition; the folder goes with it.
final class FilePeekFixture {
    var peek: FilePeek
    let folder: URL

    private init(peek: FilePeek, folder: URL) {
        self.peek = peek
        self.folder = folder
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    static func peek(_ contents: String) throws -> FilePeekFixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("peek-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("file.txt")
        try Data(contents.utf8).write(to: url)
        var peek = try FilePeek(path: url.path)
        _ = try peek.readMore()
        return FilePeekFixture(peek: peek, folder: folder)
    }
}
