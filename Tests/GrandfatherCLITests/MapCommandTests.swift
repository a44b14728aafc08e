import Foundation
import Testing

/// `grandfather map --suggest` (issue 52): the draft on stdout, what it left undecided on
/// stderr, and a draft whose questions are answered read back as a mapping.
@Suite struct MapCommandTests {
    @Test func draftsAMappingAndNamesWhatItCouldNotDecide() throws {
        let cli = try CLI()
        try cli.write(
            "purchases-2026-11-29.csv",
            "txn_id,user_id,sku,type,purchased_at\nt1,u1,pro,subscription,2025-03-04 17:00:00\n")
        try cli.write("users.jsonl", #"{"uid": "u1", "os": "iPhone", "first_seen_at": 1733047200000}"# + "\n")
        let result = try cli.run(["map", "--suggest", "purchases-2026-11-29.csv", "users.jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let draft = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(draft["format"] as? String == "grandfather.mapping/1")
        let files = try #require(draft["files"] as? [[String: Any]])
        #expect(files.count == 2)
        #expect(files[0]["name"] as? String == "purchases-*-*-*.csv")
        #expect((files[0]["columns"] as? [String: String])?["purchase_date"] == "purchased_at")
        #expect((files[1]["columns"] as? [String: String])?["platform"] == "os")
        #expect(
            result.stderr.contains(
                "grandfather: undecided: purchases-2026-11-29.csv: times.purchase_date.zone: the times state no zone"))
        #expect(!result.stderr.contains("users.jsonl"), "the customers file left nothing undecided")
    }

    @Test func mapWithoutSuggestIsAUsageError() throws {
        let cli = try CLI()
        try cli.write("a.csv", "id\n1\n")
        let result = try cli.run(["map", "a.csv"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("give --suggest"), "\(result.stderr)")
        #expect(try cli.run(["map", "--suggest", "missing.csv"]).status == 2)
    }

    static let mapping = """
        {"format": "grandfather.mapping/1", "files": [{"kind": "transactions", "name": "purchases-*.csv",
          "columns": {"transaction_id": "txn", "customer_id": "user", "product_id": "sku", "product_type": "type",
                      "purchase_date": "at"},
          "values": {"product_type": {"subscription": "auto_renewable"}},
          "times": {"purchase_date": {"form": "epoch_seconds"}}}]}
        """

    /// Through `--map`, a row whose value the mapping does not cover, or whose bytes are not
    /// UTF-8, is rejected with its file, line, column and reason; the rest are read.
    @Test func rowsTheMappingDoesNotCoverAreRejectedWithTheirPlace() throws {
        let cli = try CLI()
        try cli.write("mapping.json", Self.mapping)
        try cli.write("policy.json", SmallData.policy)
        try cli.write(
            "purchases-1.csv",
            "txn,user,sku,type,at\nt1,u1,pro,subscription,1741107600\nt2,u2,pro,bundle,1741107600\n"
                + "t3,u3,pro,subscription,4 March\n")
        let bytes = Array("t4,u".utf8) + [0xFF] + Array("4,pro,subscription,1741107600\n".utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cli.path("purchases-1.csv")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        let audit = try cli.run(
            [
                "audit", "--policy", "policy.json", "--map", "mapping.json", "--as-of", "2026-01-01T00:00:00Z",
                "--out", "out", "purchases-1.csv",
            ])
        #expect(audit.status == 3, "three of four rows rejected: \(audit.stderr)")
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: cli.path("out/runs")).first)
        let rejected = try String(contentsOfFile: cli.path("out/runs/\(run)/rejected.csv"), encoding: .utf8)
        #expect(
            rejected == """
                file,line,column,field,reason
                purchases-1.csv,3,4,product_type,"product_type ""bundle"" is not covered by the mapping's values.product_type"
                purchases-1.csv,4,5,purchase_date,"purchase_date: ""4 March"" is not whole seconds since 1970"
                purchases-1.csv,5,2,customer_id,customer_id is not valid UTF-8

                """)
    }

    @Test func aFileLackingAMappedColumnIsAUsageErrorNamingIt() throws {
        let cli = try CLI()
        try cli.write("mapping.json", Self.mapping)
        try cli.write("policy.json", SmallData.policy)
        try cli.write("purchases-2.csv", "txn,user,sku,type\nt1,u1,pro,subscription\n")
        let result = try cli.run(
            ["audit", "--policy", "policy.json", "--map", "mapping.json", "--out", "out", "purchases-2.csv"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "mapping.json: files[0].columns.purchase_date: purchases-2.csv has no column \"at\""),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("out/latest")))
    }

    /// The sample's own export: its committed mapping is `map --suggest`'s draft with its one
    /// question (the zone of local times) answered, nothing else changed.
    @Test func theSamplesMappingIsTheDraftWithItsQuestionAnswered() throws {
        let folder = SampleData.folder.appendingPathComponent("own-export")
        let cli = try CLI()
        for name in ["users.csv", "purchases.csv"] { try cli.copy(folder.appendingPathComponent(name)) }
        let result = try cli.run(["map", "--suggest", "users.csv", "purchases.csv"])
        #expect(result.status == 0)
        var draft = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        var files = try #require(draft["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["undecided"] as? [String] }.flatMap(\.self).count == 1)
        for index in files.indices where files[index]["undecided"] != nil {
            files[index]["undecided"] = nil
            var times = try #require(files[index]["times"] as? [String: [String: Any]])
            times["original_purchase_date"]?["zone"] = "America/Los_Angeles"
            files[index]["times"] = times
        }
        draft["files"] = files
        let committed = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("mapping.json")))
        #expect(NSDictionary(dictionary: draft).isEqual(committed as? [String: Any]))
    }
}
