import Foundation
import Testing

/// `report.html` and `compare.html` rendered by headless Chromium (`Chromium`), with every
/// host name unresolvable: the pages must show
/// every section from their own bytes, and hostile input as text.
@Suite(.serialized) struct BrowserTests {
    /// Runs Chromium on a local file.
    private func chromium(_ arguments: [String], page: String, window: String = "1200,1600") throws -> String {
        try Chromium.run(arguments, url: "file://" + page, window: window)
    }

    /// Renders a page: its DOM after layout, and a screenshot that must not be blank.
    private func render(_ cli: CLI, _ page: String, name: String) throws -> String {
        let screenshot = cli.path(name + ".png")
        _ = try chromium(["--screenshot=" + screenshot], page: page)
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        // A blank 1200×1600 page compresses to a few kilobytes; text and charts do not.
        #expect(png.count > 40_000, "\(name).png is \(png.count) bytes: blank?")
        return try chromium(["--dump-dom"], page: page)
    }

    @Test func reportShowsEverySectionAndHostileInputAsText() throws {
        let cli = try CLI()
        var arguments = try SampleData.install(in: cli)
        // One more input: a customer whose id is markup, bought in the edge window so that
        // the report lists it under a flag.
        try cli.write(
            "hostile.csv",
            "customer_id,platform,original_app_version,original_purchase_date\n"
                + "\"<script>alert(1)</script>\",ios,300,2025-03-04T10:00:00-08:00\n")
        arguments.append("hostile.csv")
        // And the App Store's sales reports of the same app, for the paid copies' section.
        for report in SampleData.salesReports {
            arguments.append(try cli.copy(SampleData.folder.appendingPathComponent("apple-sales/\(report)")))
        }
        let result = try cli.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let dom = try render(cli, cli.path("out/latest/report.html"), name: "report")
        for heading in [
            "The run", "Classes", "Who would see the paywall, and who needs a person",
            "Original purchases around the cutover", "Original versions per platform", "Flags",
            "Changes since the previous run", "Revenue at stake", "Paid copies and the customers found",
            "Customers by flag",
        ] {
            #expect(dom.contains(">\(heading)</h2>"), "heading \(heading)")
        }
        #expect(dom.components(separatedBy: "<svg").count - 1 >= 3, "charts")
        #expect(dom.components(separatedBy: "<rect").count - 1 >= 10, "bars")
        #expect(dom.contains("class=\"cutover\""))
        #expect(dom.contains("10 customers on Apple platforms grandfathered; 5 paid copies with no customer found"))
        #expect(dom.contains("<td>before 2024-12</td>"), "the table by month")
        #expect(!dom.contains("<script"), "no script element, and the id did not become one")
        #expect(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the id is text")
    }

    /// Issue 52: a reviewer opens the report on the decision. With the sales sample's 16
    /// inputs (the longest data-quality table the samples make), at 1280 px wide, the classes
    /// chart ends within the first 900 px, and the run's record comes last. The page has no
    /// script of its own, so a copy of it gets one that writes where the chart was laid out.
    @Test func reportOpensOnTheClassesChart() throws {
        let cli = try CLI()
        let result = try cli.run(try SampleData.installSales(in: cli))
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: cli.path("out/latest/report.html"), encoding: .utf8)
        let probe = """
            <script>
            const box = document.querySelector('#classes svg').getBoundingClientRect();
            const run = document.querySelector('#run').getBoundingClientRect();
            const out = document.createElement('pre');
            out.id = 'measured';
            out.textContent = `width=${document.documentElement.clientWidth} chart=${box.top + scrollY},${box.bottom + scrollY} run=${run.top + scrollY}`;
            document.body.appendChild(out);
            </script>
            """
        let measured = cli.path("measured.html")
        try (html.replacingOccurrences(of: "</body>", with: probe + "</body>")).write(
            toFile: measured, atomically: true, encoding: .utf8)
        let dom = try chromium(["--dump-dom"], page: measured, window: "1280,900")
        let line = try #require(
            dom.split(separator: "\n").first { $0.contains("id=\"measured\"") }, "the probe ran: \(dom.suffix(300))")
        let numbers = line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        try #require(numbers.count == 4, "\(line)")
        let (width, top, bottom, run) = (numbers[0], numbers[1], numbers[2], numbers[3])
        #expect(width == 1280, "laid out 1280 px wide: \(line)")
        #expect(top > 0 && bottom > top, "the chart has a height: \(line)")
        #expect(bottom <= 900, "the classes chart ends within the first 900 px: \(line)")
        #expect(run > bottom + 900, "the run's record comes after the decision: \(line)")
    }

    @Test func compareShowsTheMatrixAndTheCustomers() throws {
        let cli = try CLI()
        _ = try SampleData.install(in: cli)
        try cli.copy(SampleData.folder.appendingPathComponent("policy-by-date.json"))
        let result = try cli.run(
            ["compare", "--policy", "policy.json", "--policy", "policy-by-date.json", "--as-of", SampleData.asOf]
                + SampleData.inputs)
        #expect(result.status == 0, "\(result.stderr)")
        let dom = try render(cli, cli.path("reports/compare/latest/compare.html"), name: "compare")
        for heading in [
            "The policies", "Classes, A to B", "Revenue at stake moving between classes",
            "Customers treated differently",
        ] {
            #expect(dom.contains(">\(heading)</h2>"), "heading \(heading)")
        }
        #expect(dom.contains("<svg"))
        #expect(dom.contains("c12-mia-grandfathered-date-after"))
    }
}
