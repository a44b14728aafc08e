import Foundation
import GrandfatherTestSupport
import PropertyBased
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// An export is read in ranges on every core, its cuts found and its digest made by one pass
/// beside the parsers (`RangedRead`); a gzipped one is cut first and hashed beside them. Either
/// way the run must be the one pass's: the same verdicts, the same accounting, rejections at
/// the same lines, and the same digest.
struct ExportRangesTests {
    /// An export of drawn datasets (exact and conflicting copies of a transaction among them,
    /// which are deliveries of one key in different ranges), with rows no export can read at
    /// known lines, and the canonical customers file beside it.
    static func files() -> (customers: FixtureFile, export: [UInt8]) {
        var random = Xoshiro(seed: (34, 9, 0, 1))
        let datasets = (0..<120).map { _ in GeneratedDataset.generator.run(using: &random) }
        let data = TwinData(merging: datasets.indices.map { TwinData(datasets[$0], prefix: "d\($0)/") })
        let platforms = Dictionary(data.customers.map { ($0.id, $0.platform) }, uniquingKeysWith: { first, _ in first })
        var export = TwinExport(platforms: platforms, seed: 5)
        var lines = String(decoding: export.bytes(data.transactions), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A row of empty fields (every required column missing) and one of too few fields.
        let empty = String(repeating: ",", count: TwinExport.columns.count - 1)
        for line in [3, lines.count / 3, lines.count / 2, lines.count - 2] {
            lines.insert(line % 2 == 0 ? empty : "cut,short", at: line)
        }
        let customers = data.canonicalFiles.first { $0.name == "customers.csv" } ?? FixtureFile("customers.csv", "")
        return (customers, Array(lines.joined(separator: "\n").utf8))
    }

    @Test("an export cut into ranges, plain or gzipped, gives the one pass's verdicts, lines and digest")
    func rangesGiveTheOnePassResult() throws {
        let (customers, export) = Self.files()
        let onePass = try AuditFixture.run(
            [customers, FixtureFile("export.csv", bytes: export)],
            ingest: IngestOptions(parts: 1, minimumPartSize: 1 << 30))
        let outcome = GzipInputTests.outcome(onePass)
        #expect(onePass.audit.rejections.count == 4)
        #expect(onePass.audit.inputs.contains { $0.superseded > 0 || $0.exactDuplicates > 0 })
        let digest = onePass.input("export.csv")?.sha256
        #expect(digest == GzipInputTests.sha256(export))
        for parts in [3, 8] {
            let options = IngestOptions(parts: parts, minimumPartSize: 1)
            let cut = try AuditFixture.run([customers, FixtureFile("export.csv", bytes: export)], ingest: options)
            #expect(GzipInputTests.outcome(cut) == outcome, "cut into \(parts) parts")
            #expect(cut.input("export.csv")?.sha256 == digest, "cut into \(parts) parts")

            let gzipped = Gzip.member(export)
            let zipped = try AuditFixture.run(
                [customers, FixtureFile("export.csv.gz", bytes: gzipped)], ingest: options)
            #expect(GzipInputTests.outcome(zipped) == outcome, "gzipped, cut into \(parts) parts")
            // A gzip file's digest is of its stored bytes.
            #expect(zipped.input("export.csv.gz")?.sha256 == GzipInputTests.sha256(gzipped))
        }
    }
}
