import Foundation
import Testing

/// RevenueCat webhook events through the command: the merges land in the snapshot's
/// `merged_ids` and in both summaries.
@Suite struct WebhookCommandTests {
    @Test func mergedIDsAreListedInTheSnapshotAndCountedInTheSummaries() throws {
        let cli = try CLI()
        var arguments = try SmallData.install(in: cli)
        // b-subscriber's purchase was made under an id RevenueCat later aliased to it.
        try cli.write(
            "transactions.csv",
            SmallData.transactions.replacingOccurrences(of: "t1,b-subscriber,", with: "t1,b-phone,"))
        try cli.write(
            "webhooks.jsonl",
            #"{"api_version": "1.0", "event": {"type": "RENEWAL", "event_timestamp_ms": 1717200000000, "#
                + #""original_app_user_id": "b-subscriber", "app_user_id": "b-phone", "aliases": ["b-tablet"]}}"#
                + "\n")
        arguments.append("webhooks.jsonl")
        let result = try cli.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 customers (1 grandfathered, 1 subscriber, 1 lapsed, 0 new, 0 excluded)"))
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        #expect(
            try dump.rows("merged_ids") == [
                #""b-phone"|"b-subscriber"|"alias""#, #""b-tablet"|"b-subscriber"|"alias""#,
            ])
        let summary = try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8)
        #expect(summary.contains("Customer ids merged by RevenueCat's webhook events: 2 onto 1 customers"))
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/summary.json")))) as? [String: Any])
        let merged = try #require(json["merged_ids"] as? [String: Int])
        #expect(merged == ["ids": 2, "customers": 1, "aliases": 2, "transfers": 0])
        let validate = try cli.run(["validate"] + arguments.dropFirst().filter { $0 != "--out" && $0 != "out" })
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.contains("Customer ids merged by RevenueCat's webhook events: 2 onto 1 customers"))
    }
}
