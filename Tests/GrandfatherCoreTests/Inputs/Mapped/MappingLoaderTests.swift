import Foundation
import Testing

@testable import GrandfatherCore

/// A mapping is read before any input: each problem a usage error naming the mapping, the
/// place in it and the field (issue 52).
@Suite struct MappingLoaderTests {
    private func load(_ text: String) -> Result<Mapping, GrandfatherError> {
        Result { () throws(GrandfatherError) in try MappingLoader.parse(data: Data(text.utf8), file: "map.json") }
    }

    private func message(_ text: String) -> String {
        if case .failure(let error) = load(text) { return error.description }
        return "(loaded)"
    }

    static let transactions = """
        "kind": "transactions", "name": "purchases*.csv",
        "columns": {"transaction_id": "txn_id", "customer_id": "user_id", "product_id": "sku",
                    "product_type": "type", "purchase_date": "purchased_at"}
        """

    @Test func aCompleteMappingLoadsWithItsDigest() throws {
        let mapping = try load(
            """
            {"format": "grandfather.mapping/1", "files": [{\(Self.transactions),
              "constants": {"environment": "production"},
              "values": {"product_type": {"subscription": "auto_renewable"}},
              "times": {"purchase_date": {"form": "yyyy-MM-dd HH:mm:ss", "zone": "Europe/Berlin"}}}]}
            """
        ).get()
        let file = try #require(mapping.files.first)
        #expect(file.kind == .transactions)
        #expect(file.columns["product_id"] == "sku")
        #expect(file.constants == ["environment": "production"])
        #expect(file.values["product_type"] == ["subscription": "auto_renewable"])
        #expect(file.times["purchase_date"] == Mapping.Time(form: .dateTime, zone: "Europe/Berlin"))
        #expect(mapping.digest.count == 64)
        #expect(mapping.path == "map.json")
    }

    @Test func aDraftsOwnOutputRoundTrips() throws {
        var file = Mapping.File(kind: .customers)
        file.name = "users*.jsonl"
        file.columns = ["customer_id": "uid", "platform": "os"]
        file.values = ["platform": ["iPhone": "ios"]]
        file.times = ["original_purchase_date": Mapping.Time(form: .epochSeconds, zone: nil)]
        file.columns["original_purchase_date"] = "first_seen"
        let text = Mapping(files: [file]).json()
        let read = try load(text).get()
        #expect(read.files == [file])
    }

    @Test func eachProblemNamesTheMappingAndTheField() {
        let head = #"{"format": "grandfather.mapping/1", "files": [{"#
        #expect(
            message(head + #""kind": "transactions", "name": "p.csv", "columns": {"customer_id": "u"}}]}"#).contains(
                "map.json:1:47: error: files[0]: required field \"transaction_id\" of transactions is unmapped"))
        #expect(
            message(head + Self.transactions + #", "undecided": ["times.purchase_date.zone: …"]}]}"#).contains(
                "files[0].undecided: 1 thing is left undecided by the draft"))
        #expect(message(head + Self.transactions + #", "colums": {}}]}"#).contains("files[0].colums: unknown key"))
        #expect(
            message(head + Self.transactions + #", "constants": {"platform": "ios"}}]}"#).contains(
                "files[0].constants.platform: is not a field of transactions"))
        #expect(
            message(head + Self.transactions + #", "values": {"product_type": {"sub": "subscription"}}}]}"#).contains(
                "\"subscription\" is not one of auto_renewable, non_renewing, non_consumable, consumable"))
        #expect(
            message(
                head + Self.transactions
                    + #", "times": {"purchase_date": {"form": "epoch_seconds", "zone": "Mars/Base"}}}]}"#
            )
            .contains("\"Mars/Base\" is not a time zone"))
        #expect(
            message(head + Self.transactions + #", "times": {"purchase_date": {"form": "MM/dd/yyyy"}}}]}"#).contains(
                "MM/dd/yyyy times state no zone"))
        #expect(
            message(
                #"{"format": "grandfather.mapping/1", "files": [{"kind": "customers", "name": "c.csv", "#
                    + #""columns": {"customer_id": "id", "storefront": "id"}, "constants": {"platform": "ios"}}]}"#
            ).contains("column \"id\" is already mapped to"))
        #expect(message(#"{"format": "grandfather.mapping/2", "files": []}"#).contains("format: must be"))
        #expect(
            message(#"{"format": "grandfather.mapping/1", "files": [{"kind": "sales", "name": "x"}]}"#).contains(
                "must be customers or transactions"))
    }
}
