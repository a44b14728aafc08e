import Foundation
import Testing

@testable import GrandfatherCore

/// `explain` names, for each deciding transaction, the source shape that gave each of its
/// facts (SPEC §9, Redeliveries): recorded in the snapshot's `fact_sources`.
struct FactSourcesTests {
    @Test("one shape alone is named alone; merged deliveries name each fact another shape stated")
    func described() {
        var canonical = TransactionProvenance(shape: .canonical)
        canonical.typeSource = .record
        #expect(canonical.described == "canonical")

        var merged = TransactionProvenance(shape: .subscriberItem, stating: TransactionShape.subscriberItem.facts)
        merged.set(.ownership, to: .revenueCatExport)
        merged.set(.originalTransactionID, to: .revenueCatExport)
        merged.typeSource = .policy
        #expect(
            merged.described
                == "revenuecat_non_subscription; original_transaction_id=revenuecat_export; "
                + "ownership_type=revenuecat_export; product_type=policy")
        #expect(
            ExplanationText.sourcesLine(merged.described)
                == "facts from revenuecat_non_subscription; original_transaction_id, ownership_type from "
                + "revenuecat_export; product_type from policy")
    }

    @Test("of two records that decide alike, the same one is named whatever the order they are folded in")
    func namedInEitherOrder() {
        let export = TransactionProvenance(shape: .revenueCatExport)
        let canonical = TransactionProvenance(shape: .canonical)
        #expect(export.named(against: canonical) == canonical.named(against: export))
    }

    @Test("an export row restated by a later response: explain names the export for what the response lacks")
    func explainNamesEachFactsSource() throws {
        let run = try AuditFixture.run(ProductFactsTests.annsLifetime(entitledProduct: "lifetime"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grandfather-sources-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lock = try RunLock.acquire(directory: folder, startedAt: "2024-01-01T00:00:00Z")
        let outcome = try RunWriter(directory: folder).write(
            run.audit, run: RunRecord(runID: "20240101T000000.000Z-1", startedAt: "2024-01-01T00:00:00Z"),
            processID: 1, lock: lock)
        let explanation = try Explanation.read(customerID: "ann", snapshot: outcome.runFolder + "/snapshot.sqlite")
        let transaction = try #require(explanation.transactions?.first)
        let sources = try #require(transaction.factSources)
        // The response's item is the latest delivery; what an item has no place for (its
        // expiry, refund, ownership, original id) stays the export's.
        #expect(sources.hasPrefix("revenuecat_non_subscription; "))
        #expect(sources.contains("ownership_type=revenuecat_export"))
        #expect(sources.contains("revocation_date=revenuecat_export"))
        #expect(!sources.contains("purchase_date="))
        #expect(sources.hasSuffix("product_type=revenuecat_export"))
        #expect(
            ExplanationText.render(explanation, snapshot: "s").contains("    facts from revenuecat_non_subscription; "))
    }

    /// The provenance of each current grant, by transaction id.
    static func grantSources(_ audit: Audit) -> [String: TransactionProvenance] {
        var sources: [String: TransactionProvenance] = [:]
        audit.customers.forEachVerdict { _, _, activity in
            for grant in activity.current { sources[grant.transactionID.string] = grant.provenance }
        }
        return sources
    }

    @Test("a normalize folder keeps fact_sources; one written before the column (and term_ends) names the folder")
    func aFolderKeepsOrNamesItself() throws {
        let columns = WarehouseLayout.transactions.columns
        let row = "t1,,ann,pro.lifetime,non_consumable,2024-01-01T00:00:00.000000Z,,,purchased,production,,,,,false"
        let older = columns.filter { !$0.isNewer }.map(\.name).joined(separator: ",") + "\n" + row + "\n"
        let before = try AuditFixture.run([FixtureFile("transactions.csv", older)])
        #expect(before.audit.rejections.isEmpty)
        #expect(before.audit.inputs.first?.format == .warehouse)
        #expect(Self.grantSources(before.audit)["t1"]?.described == "normalized_folder")

        let header = columns.map(\.name).joined(separator: ",") + "\n"
        let kept = header + row + ",,revenuecat_non_subscription; ownership_type=revenuecat_export\n"
        let now = try AuditFixture.run([FixtureFile("transactions.csv", kept)])
        #expect(
            Self.grantSources(now.audit)["t1"]?.described
                == "revenuecat_non_subscription; ownership_type=revenuecat_export")

        let garbled = try AuditFixture.run([FixtureFile("transactions.csv", header + row + ",,from a friend\n")])
        #expect(
            garbled.audit.rejections.map(\.reason) == ["fact_sources is not a list of source shapes: 'from a friend'"])
    }
}
