import Foundation
import Testing

@testable import GrandfatherCore

/// report.html's "RevenueCat reconciliation" (issue 16): present only when the run read
/// subscriber responses, with the reconciled customers, the two flags and the customers they
/// flag, capped as every customer list of the report is.
struct ReconciliationSectionTests {
    /// A subscriber response naming the `entitlements` RevenueCat has, each for life.
    static func body(_ id: String, _ entitlements: [String]) -> String {
        let items = entitlements.map { "\(quoted($0)): {\"expires_date\": null, \"product_identifier\": \"x\"}" }
        return
            "{\"subscriber\": {\"original_app_user_id\": \(quoted(id)), \"entitlements\": {\(items.joined(separator: ", "))}}}"
    }

    /// The reconciliation section of a rendered report, `nil` when there is none.
    static func section(_ audit: Audit) throws -> String? {
        let html = String(decoding: try ReportHTML.render(audit), as: UTF8.self)
        guard let start = html.range(of: "<section id=\"reconciliation\""),
            let end = html[start.upperBound...].range(of: "</section>")
        else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// The table rows of the flagged customers.
    static func rows(_ section: String) -> [String] {
        section.split(separator: "\n").filter { $0.hasPrefix("<tr><td class=\"id\">") }.map(String.init)
    }

    static func row(_ id: String, _ customerClass: String, _ flags: String, _ active: String, _ granted: String)
        -> String
    {
        "<tr><td class=\"id\">\(id)</td><td>\(customerClass)</td><td><code>\(flags)</code></td><td>\(active)</td>"
            + "<td>\(granted)</td></tr>"
    }

    @Test("a reconciled run shows the reconciled customers, both flags' counts and the flagged customers")
    func countsAndRows() throws {
        // Cutover build 245 on iOS (PolicySpec): 100 is before it, 300 after.
        let customers =
            "customer_id,platform,original_app_version,environment\n"
            + "gf-none,ios,100,production\n" + "gf-premium,ios,100,production\n" + "new-vip,ios,300,production\n"
            + "gf-both,ios,100,production\n" + "sub-extra,ios,300,production\n" + "Zed-none,ios,100,production\n"
            + "no-response,ios,100,production\n" + "sandbox-gf,ios,100,sandbox\n"
        let responses = [
            Self.body("gf-none", []),
            Self.body("gf-premium", ["premium"]),
            // A name from outside, escaped like every value of the report.
            Self.body("new-vip", ["<vip>"]),
            Self.body("gf-both", ["navigation"]),
            Self.body("sub-extra", ["premium", "navigation"]),
            Self.body("Zed-none", []),
            // Excluded: nothing to compare.
            Self.body("sandbox-gf", []),
        ]
        let transactions =
            "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date\n"
            + "t1,sub-extra,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-07-01T00:00:00Z\n"
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", customers), FixtureFile("transactions.csv", transactions),
            FixtureFile("subscribers.jsonl", responses.joined(separator: "\n") + "\n"),
        ])

        let section = try #require(try Self.section(run.audit))
        #expect(section.contains("<h2>RevenueCat reconciliation</h2>"))
        #expect(section.contains("<p>Customers with a RevenueCat subscriber response, reconciled: 6."))
        for flag in [Flag.grandfatheredNotGranted, .grantedNotEntitled] {
            let explanation = flag.explanation.replacingOccurrences(of: "'", with: "&#39;")
            #expect(
                section.contains(
                    "<tr><td><code>\(flag.code)</code></td><td><span class=\"severity review\">review</span></td>"
                        + "<td class=\"num\">3</td><td>\(explanation)</td></tr>"),
                "\(flag.code)")
        }
        #expect(section.contains("<h3>Flagged customers · 5 customers</h3>"))
        // Code-point order: upper case first.
        #expect(
            Self.rows(section) == [
                Self.row("Zed-none", "grandfathered", "grandfathered_not_granted", "none", "premium (grandfathered)"),
                Self.row(
                    "gf-both", "grandfathered", "grandfathered_not_granted, granted_not_entitled", "navigation",
                    "premium (grandfathered)"),
                Self.row("gf-none", "grandfathered", "grandfathered_not_granted", "none", "premium (grandfathered)"),
                Self.row("new-vip", "new", "granted_not_entitled", "&lt;vip&gt;", "nothing"),
                Self.row(
                    "sub-extra", "subscriber", "granted_not_entitled", "navigation, premium", "premium (purchase)"),
            ])
        #expect(!section.contains("<vip>"))
        #expect(!section.contains("more: <code>"))
        #expect(section.contains("<code>grants.csv</code> and <code>grants.jsonl</code> hold 3 grants"))
        #expect(GrantsFiles.grants(run.audit).count == 3)
    }

    @Test("the flagged customers are capped at the report's list length, the rest counted")
    func capped() throws {
        let ids = (0..<(ReportHTML.listed + 2)).map { "c" + String(1000 + $0) }
        let responses = ids.map { Self.body($0, []) }
        let run = try AuditFixture.run([
            FixtureFile(
                "customers.csv", "customer_id,platform,original_app_version\n" + ids.map { "\($0),ios,100\n" }.joined()),
            FixtureFile("subscribers.jsonl", responses.joined(separator: "\n") + "\n"),
        ])
        let section = try #require(try Self.section(run.audit))
        #expect(section.contains("<h3>Flagged customers · \(ids.count) customers</h3>"))
        #expect(section.contains("<p>The first \(ReportHTML.listed) of them, in id order.</p>"))
        let listed = Self.rows(section)
        #expect(listed.count == ReportHTML.listed)
        #expect(listed.first?.hasPrefix("<tr><td class=\"id\">c1000<") == true)
        #expect(listed.last?.hasPrefix("<tr><td class=\"id\">c\(1000 + ReportHTML.listed - 1)<") == true)
        #expect(section.contains("<p>… and 2 more: <code>SELECT DISTINCT customer_id FROM customer_flags"))
        #expect(section.contains("hold \(ids.count) grants"))
    }

    @Test("a reconciled run without flagged customers says so")
    func nothingFlagged() throws {
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("a", version: "100")),
            FixtureFile("subscribers.jsonl", Self.body("a", ["premium"]) + "\n"),
        ])
        let section = try #require(try Self.section(run.audit))
        #expect(section.contains("<p>Customers with a RevenueCat subscriber response, reconciled: 1."))
        #expect(section.contains("<p>No reconciled customer is flagged.</p>"))
        #expect(Self.rows(section).isEmpty)
        #expect(section.contains("hold 0 grants"))
    }

    @Test("a run without subscriber responses has no reconciliation section")
    func absentWithoutResponses() throws {
        let run = try AuditFixture.run(customers: AuditFixture.customers("a", version: "100"))
        #expect(!run.audit.reconciled)
        let html = String(decoding: try ReportHTML.render(run.audit), as: UTF8.self)
        #expect(!html.contains("reconciliation"))
        #expect(html.contains("</section>\n\n<section id=\"customers\" class=\"customers\">"))
    }
}
