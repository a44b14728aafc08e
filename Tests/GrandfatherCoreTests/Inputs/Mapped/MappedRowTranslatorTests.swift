import Foundation
import Testing

@testable import GrandfatherCore

/// A mapped file's rows as SPEC §2's rows (issue 52): columns renamed, constants, spellings,
/// times; a value the mapping does not cover rejects its row with the field and its column.
@Suite struct MappedRowTranslatorTests {
    static let mapping = try? MappingLoader.parse(
        data: Data(
            """
            {"format": "grandfather.mapping/1", "files": [{"kind": "transactions", "name": "p*.csv",
              "columns": {"transaction_id": "txn", "customer_id": "user", "product_id": "sku", "product_type": "type",
                          "purchase_date": "at"},
              "constants": {"environment": "production"},
              "values": {"product_type": {"subscription": "auto_renewable", "lifetime": "non_consumable"}},
              "times": {"purchase_date": {"form": "yyyy-MM-dd HH:mm:ss", "zone": "Europe/Berlin"}}}]}
            """.utf8), file: "map.json")

    static let header = ["at", "note", "type", "sku", "user", "txn"]

    private func translator() throws -> MappedRowTranslator {
        let mapping = try #require(Self.mapping)
        return try MappedRowTranslator(mapping.files[0], at: 0, of: mapping, columns: Self.header, path: "p1.csv")
    }

    private func row(_ values: [String?]) -> (Int) -> String? { { values[$0] } }

    @Test func aRowBecomesSPECsFields() throws {
        let texts = try translator().translate(
            row(["2025-03-04 18:00:00", "gift", "subscription", "pro", "u1", "t1"])
        ).get()
        var expected = [String?](repeating: nil, count: TransactionField.allCases.count)
        expected[TransactionField.transactionID.rawValue] = "t1"
        expected[TransactionField.customerID.rawValue] = "u1"
        expected[TransactionField.productID.rawValue] = "pro"
        expected[TransactionField.productType.rawValue] = "auto_renewable"
        expected[TransactionField.purchaseDate.rawValue] = "2025-03-04T17:00:00Z"
        expected[TransactionField.environment.rawValue] = "production"
        #expect(texts == expected)
    }

    @Test func aCanonicalSpellingPassesAndAnUncoveredOneRejectsTheRow() throws {
        let translator = try translator()
        let canonical = try translator.translate(row(["2025-03-04 18:00:00", nil, "consumable", "c", "u1", "t2"])).get()
        #expect(canonical[TransactionField.productType.rawValue] == "consumable")
        #expect(
            translator.translate(row(["2025-03-04 18:00:00", nil, "bundle", "c", "u1", "t3"]))
                == .failure(
                    MappedRowTranslator.Rejection(
                        field: "product_type", column: 3,
                        reason: "product_type \"bundle\" is not covered by the mapping's values.product_type")))
        #expect(
            translator.translate(row(["4 March", nil, "lifetime", "c", "u1", "t4"]))
                == .failure(
                    MappedRowTranslator.Rejection(
                        field: "purchase_date", column: 1,
                        reason: "purchase_date: \"4 March\" is not yyyy-MM-dd HH:mm:ss")))
    }

    @Test func aMappedColumnTheFileLacksIsAUsageErrorNamingTheField() throws {
        let mapping = try #require(Self.mapping)
        #expect(throws: GrandfatherError.usage("map.json: files[0].columns.purchase_date: p2.csv has no column \"at\""))
        {
            try MappedRowTranslator(
                mapping.files[0], at: 0, of: mapping, columns: ["txn", "user", "sku", "type"], path: "p2.csv")
        }
    }
}
