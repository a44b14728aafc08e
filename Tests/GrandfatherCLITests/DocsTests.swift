import Foundation
import GrandfatherCore
import Testing

/// Docs generated from code must match it; `scripts/update-docs` regenerates them.
@Suite struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func readmeFlagTableIsCurrent() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- flag-table:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- flag-table:end -->"))
        let table = String(readme[begin.upperBound..<end.lowerBound])
        #expect(table == FlagTable.markdown(), "README.md flag table is stale: run scripts/update-docs")
    }

    @Test func readmeWarehouseLayoutIsCurrent() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- warehouse-layout:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- warehouse-layout:end -->"))
        let table = String(readme[begin.upperBound..<end.lowerBound])
        #expect(table == WarehouseLayout.markdown(), "README.md warehouse layout is stale: run scripts/update-docs")
        let cli = try CLI()
        #expect(try cli.run(["layout"]).stdout == WarehouseLayout.markdown())
    }

    /// The table of what each transaction shape states, from `TransactionShape.facts`;
    /// `RECORD_DOCS=1 scripts/test` rewrites it, to be reviewed in `git diff`.
    @Test func readmeShapeTableIsTheCode() throws {
        try Self.checkReadmeBlock("shape-facts", is: TransactionShape.markdownTable(), from: "TransactionShape.facts")
    }

    /// Requires README.md's text between `<!-- marker:begin -->` and `<!-- marker:end -->` to
    /// be `table`; with `RECORD_DOCS=1`, writes it there instead.
    static func checkReadmeBlock(_ marker: String, is table: String, from source: String) throws {
        let path = root.appendingPathComponent("README.md")
        let readme = try String(contentsOf: path, encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- \(marker):begin -->\n"))
        let end = try #require(readme.range(of: "<!-- \(marker):end -->"))
        if ProcessInfo.processInfo.environment["RECORD_DOCS"] == "1" {
            try (readme[..<begin.upperBound] + table + readme[end.lowerBound...]).write(
                to: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(readme[begin.upperBound..<end.lowerBound]) == table,
            "README.md's \(marker) block is not \(source): run RECORD_DOCS=1 scripts/test")
    }

    @Test func flagsCommandPrintsTheCatalog() throws {
        let cli = try CLI()
        let result = try cli.run(["flags"])
        #expect(result.status == 0)
        #expect(result.stdout == FlagTable.markdown())
        for flag in Flag.allCases { #expect(result.stdout.contains("`\(flag.code)`")) }
    }
}
