import Foundation
import Testing

/// The hostile-input catalogue, case by case against the built binary, and the README's table
/// generated from it.
@Suite struct HostileCatalogueTests {
    @Test(arguments: HostileCatalogue.cases)
    func hostileInput(_ hostile: HostileCase) throws {
        try hostile.run()
    }

    @Test func everyCaseIsNamedOnce() {
        let names = HostileCatalogue.cases.map(\.input)
        #expect(Set(names).count == names.count)
    }

    /// `RECORD_DOCS=1 scripts/test` rewrites the table, to be reviewed in `git diff`.
    @Test func readmeHardeningTableIsTheCatalogue() throws {
        let path = DocsTests.root.appendingPathComponent("README.md")
        let readme = try String(contentsOf: path, encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- hostile-table:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- hostile-table:end -->"))
        let table = HostileCase.markdownTable(HostileCatalogue.cases)
        if ProcessInfo.processInfo.environment["RECORD_DOCS"] == "1" {
            try (readme[..<begin.upperBound] + table + readme[end.lowerBound...]).write(
                to: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(readme[begin.upperBound..<end.lowerBound]) == table,
            "README.md's hardening table is not the catalogue: run RECORD_DOCS=1 scripts/test")
    }
}
