import Foundation

/// Issue 33, items 2 and 7: a few megabytes that made a run quadratic (webhook merge chains,
/// one customer with many current purchases, a first JSON object of many megabytes), and a
/// transfer back that left the customer under the id its purchases had left. Each ran past
/// the case's time limit, or gave the wrong customer, before the fix.
extension HostileCatalogue {
    /// A webhook body, one line.
    static func webhook(_ event: String) -> String {
        #"{"api_version":"1.0","event":{\#(event)}}"# + "\n"
    }

    /// `count` webhook events, each given the index, with `u0` a customer of the canonical list.
    static func webhookChain(_ count: Int, _ event: @escaping @Sendable (Int) -> String) -> HostileCase.Maker {
        { cli in
            try cli.write("u0.csv", "customer_id,platform,original_app_version\nu0,ios,100\n")
            try cli.write("webhooks.jsonl", (0..<count).map { webhook(event($0)) }.joined())
            return .audit(["u0.csv", "webhooks.jsonl"])
        }
    }

    static let merges: [HostileCase] = [
        .read(
            "100,000 webhook events aliasing `u<i>` to `u<i+1>` (13 MB)", "33.2",
            [.stdout("1 customer ("), .file("out/latest/customers.csv", contains: "u100000,")],
            make: webhookChain(100_000) {
                #""type":"RENEWAL","event_timestamp_ms":\#($0),"app_user_id":"u\#($0)","original_app_user_id":"u\#($0 + 1)""#
            }
        ),
        .read(
            "100,000 webhook transfers from `u<i>` to `u<i+1>` (13 MB)", "33.2",
            [.stdout("1 customer ("), .file("out/latest/customers.csv", contains: "u100000,")],
            make: webhookChain(100_000) {
                #""type":"TRANSFER","event_timestamp_ms":\#($0),"transferred_from":["u\#($0)"],"transferred_to":["u\#($0 + 1)"]"#
            }
        ),
        .read(
            "one subscriber response with 50,000 current subscriptions (8 MB on one line)", "33.2",
            [
                .stdout("1 customer (0 grandfathered, 1 subscriber"),
                .file("out/latest/customers.csv", contains: "solo,"),
            ]
        ) { cli in
            let subscriptions = (0..<50_000).map { index in
                #""p\#(index)":{"store":"app_store","is_sandbox":false,"store_transaction_id":"t\#(index)","#
                    + #""purchase_date":"2024-05-01T00:00:00Z","expires_date":"2024-07-01T00:00:00Z"}"#
            }
            try cli.write(
                "subscribers.jsonl",
                #"{"request_date":"2024-05-31T00:00:00Z","subscriber":{"original_app_user_id":"solo","#
                    + #""original_application_version":"300","subscriptions":{"#
                    + subscriptions.joined(separator: ",") + "}}}\n")
            return .audit(["subscribers.jsonl"])
        },
        .read(
            "one customer with 60,000 current purchases (4 MB)", "33.2",
            [
                .stdout("1 customer (0 grandfathered, 1 subscriber"),
                .file("out/latest/customers.csv", contains: "solo,"),
            ]
        ) { cli in
            let rows = (0..<60_000).map {
                "t\($0),solo,p\($0),auto_renewable,2024-05-01T00:00:00Z,2024-07-01T00:00:00Z\n"
            }
            try cli.write("t.csv", transactionsHeader + ",expires_date\n" + rows.joined())
            return .audit(["t.csv"])
        },
        .read(
            "a webhook transfer from `anon-a` to `user-b`, then back", "33.7",
            [.stdout("1 customer ("), .file("out/latest/customers.csv", contains: "anon-a,")]
        ) { cli in
            try cli.write("anon.csv", "customer_id,platform,original_app_version\nanon-a,ios,100\n")
            try cli.write(
                "webhooks.jsonl",
                webhook(
                    #""type":"TRANSFER","event_timestamp_ms":1,"transferred_from":["anon-a"],"transferred_to":["user-b"]"#
                )
                    + webhook(
                        #""type":"TRANSFER","event_timestamp_ms":2,"transferred_from":["user-b"],"transferred_to":["anon-a"]"#
                    ))
            return .audit(["anon.csv", "webhooks.jsonl"])
        },
    ]
}
