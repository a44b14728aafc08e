import Foundation
import Testing

/// summary.md and compare.md built from ids, file names, a policy name and a currency that
/// hold markup render, through a real CommonMark renderer (`cmark`, from Debian, in `--unsafe`
/// mode so that raw HTML would show as the element it is), to exactly the elements of the
/// same reports built from plain values: nothing from the input becomes an element.
@Suite struct MarkdownEscapingTests {
    static let hostile = [
        "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "a|b|c",
        "**bold** _it_ `code`", "line\nbreak", "&amp; &#x3C; \\ ~~s~~ $x$ # h",
    ]
    static let plain = ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]

    /// Runs two audits (the second adds purchases, so the changes section lists every
    /// customer) and a comparison of a version-based and a date-based policy (which treat every
    /// customer differently); returns summary.md and compare.md.
    static func reports(ids: [String], name: String, currency: String, file: String) throws -> (String, String) {
        let cli = try CLI()
        func policy(_ basis: String) -> String {
            let nameJSON = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\""
            )
            .replacingOccurrences(of: "\n", with: "\\n")
            return """
                {"name": "\(nameJSON)",
                 "cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "245"}, "basis": "\(basis)"},
                 "grandfathered_entitlements": ["premium"]}
                """
        }
        try cli.write("a.json", policy("version"))
        try cli.write("b.json", policy("date"))
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var customers = "customer_id,platform,original_app_version,original_purchase_date\n"
        var transactions =
            "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,price,currency\n"
        for (index, id) in ids.enumerated() {
            customers += "\(quoted(id)),ios,200,2024-04-01T00:00:00Z\n"
            transactions +=
                "t\(index),\(quoted(id)),pro,auto_renewable,2024-05-01T00:00:00Z,2024-07-01T00:00:00Z,9.99,\(quoted(currency))\n"
        }
        try cli.write(file, customers)
        try cli.write("t.csv", transactions)
        let audit = ["audit", "--policy", "a.json", "--as-of", "2024-06-01T00:00:00Z", "--out", "out", file]
        let first = try cli.run(audit)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try cli.run(audit + ["t.csv"])
        #expect(second.status == 0, "\(second.stderr)")
        let compare = try cli.run(
            [
                "compare", "--policy", "a.json", "--policy", "b.json", "--as-of", "2024-06-01T00:00:00Z", "--out",
                "cmp",
                file, "t.csv",
            ])
        #expect(compare.status == 0, "\(compare.stderr)")
        return (
            try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8),
            try String(contentsOfFile: cli.path("cmp/latest/compare.md"), encoding: .utf8)
        )
    }

    /// The document rendered by `cmark --unsafe`.
    static func render(_ markdown: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cmark")
        process.arguments = ["--unsafe"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let html = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: html, as: UTF8.self)
    }

    /// The elements of rendered HTML, in order: `table`, `/table`, `a`….
    static func elements(_ html: String) -> [String] {
        var names: [String] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            let name = rest[rest.index(after: open)...].prefix { $0 == "/" || $0.isLetter || $0.isNumber }
            if name.contains(where: \.isLetter) { names.append(name.lowercased()) }
            rest = rest[rest.index(after: open)...]
        }
        return names
    }

    @Test func markupFromInputsRendersAsLiteralText() throws {
        let (plainSummary, plainCompare) = try Self.reports(
            ids: Self.plain, name: "plain policy", currency: "USD", file: "customers.csv")
        let (summary, compare) = try Self.reports(
            ids: Self.hostile, name: "<script>alert('p')</script> **p** [p](javascript:x) | p\nq",
            currency: "<b>$</b>|",
            file: "<img src=x onerror=alert(1)> [f](javascript:f) **f**|\nf.csv")
        for (document, plain, name) in [(summary, plainSummary, "summary.md"), (compare, plainCompare, "compare.md")] {
            let html = try Self.render(document)
            let expected = Self.elements(try Self.render(plain))
            #expect(Self.elements(html) == expected, "\(name): elements differ from the plain run's\n\(html)")
            #expect(!html.contains("<script"), "\(name)")
            #expect(!html.contains("<img"), "\(name)")
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(name): the id is shown as text\n\(html)")
            #expect(html.contains("[x](javascript:alert(1))"), "\(name)")
        }
        let html = try Self.render(summary)
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; [f](javascript:f) **f**| f.csv"), "\(html)")
        #expect(html.contains("&lt;B&gt;$&lt;/B&gt;|"), "the currency, as text\n\(html)")
    }
}
