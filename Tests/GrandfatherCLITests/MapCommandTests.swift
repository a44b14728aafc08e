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
}
