import Foundation
import Testing

/// `report.html`: self-contained, every section present, and input shown as text only.
@Suite struct ReportHTMLTests {
    static let hostile = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "=HYPERLINK(\"http://x\",\"y\")",
    ]

    @Test func everySectionIsThereAndNothingIsFetched() throws {
        let cli = try CLI()
        #expect(try cli.run(try SampleData.install(in: cli)).status == 0)
        let html = try String(contentsOfFile: cli.path("out/latest/report.html"), encoding: .utf8)
        for heading in [
            "The run", "Inputs and data quality", "Classes", "Original purchases around the cutover",
            "Original versions per platform", "Flags", "Changes since the previous run", "Revenue at stake",
            "Customers by flag",
        ] {
            #expect(html.contains(">\(heading)</h"), "missing section \(heading)")
        }
        #expect(html.components(separatedBy: "<svg").count - 1 >= 3, "class, timeline and version charts")
        #expect(html.contains("class=\"cutover\""), "the cutover is marked")
        #expect(html.contains("class=\"window\""), "the edge window is marked")
        for external in ["<script", "src=\"http", "href=\"http", "@import", "url("] {
            #expect(!html.contains(external), "\(external) would need the network or a script")
        }
        #expect(html.contains("@page { size: A4"))
    }

    @Test func hostileIdsAndProductsAreTextInHTMLAndNeutralisedInCSV() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        var customers = "customer_id,platform,original_app_version,original_purchase_date\n"
        var transactions = "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date\n"
        for (index, text) in Self.hostile.enumerated() {
            let field = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            // Bought in the edge window, so each is listed under a flag in the report.
            customers += "\(field),ios,300,2024-03-01T06:00:00Z\n"
            transactions += "t\(index),\(field),\(field),non_consumable,2024-04-01T00:00:00Z,\n"
        }
        try cli.write("customers.csv", customers)
        try cli.write("transactions.csv", transactions)
        let result = try cli.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")

        let html = try String(contentsOfFile: cli.path("out/latest/report.html"), encoding: .utf8)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("=HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)"))

        let csv = try String(contentsOfFile: cli.path("out/latest/customers.csv"), encoding: .utf8)
        #expect(csv.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""), "a formula starts with a quote mark")
        #expect(!csv.contains(",=HYPERLINK"))
    }
}
