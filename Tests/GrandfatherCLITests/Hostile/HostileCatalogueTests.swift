import Foundation
import Testing

/// The hostile-input catalogue, case by case against the built binary, and docs/Hardening.md's table
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
    @Test func hardeningTableIsTheCatalogue() throws {
        try DocsTests.checkBlock(
            "hostile-table", in: "docs/Hardening.md", is: HostileCase.markdownTable(HostileCatalogue.cases),
            from: "the catalogue")
    }
}
