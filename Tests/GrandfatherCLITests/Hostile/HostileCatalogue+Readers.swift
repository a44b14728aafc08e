import Foundation

/// Issue 33, items 8, 11 and part of 12: what the readers added since the hardening issue
/// took on trust. One bomb rule over a whole gzip stream; one id-length rule and one rule for
/// repeated columns and keys, for every reader; and what reaches a person's report or a
/// request RevenueCat is sent.
extension HostileCatalogue {
    /// A subscriber response for `id`, grandfathered (build 100) and granted nothing by RevenueCat.
    static func subscriber(_ id: String, extra: String = "") -> String {
        #"{"request_date":"2024-05-31T00:00:00Z","subscriber":{"original_app_user_id":"\#(id)","#
            + #""original_application_version":"100","subscriptions":{},"entitlements":{}\#(extra)}}"# + "\n"
    }

    static let longID = String(repeating: "x", count: 70_000)

    static let readers: [HostileCase] = [
        .refused(
            "a gzip bomb cut into 100 members of 1 MiB each (996 to 1)", "33.8",
            .line(
                "bomb.csv.gz: error: gzip data inflates to more than 100 times its size; refused as a decompression bomb"
            )
        ) { _ in
            .script(
                "python3 -c 'import gzip, sys; sys.stdout.buffer.write(b\"\".join("
                    + "gzip.compress(bytes(1 << 20), 9) for _ in range(100)))' > bomb.csv.gz && "
                    + "exec \"$GRANDFATHER\" \(HostileCase.auditArguments.joined(separator: " ")) good.csv bomb.csv.gz")
        },
        .read(
            "a RevenueCat customer list whose `app_user_id` is 70,000 bytes", "33.11",
            [.rejected("app_user_id is longer than 65536 bytes")],
            make: HostileCase.auditing("list.csv", "app_user_id,first_seen_at\n\(longID),2024-01-01T00:00:00Z\n")),
        .read(
            "a subscriber response whose `original_app_user_id` is 70,000 bytes", "33.11",
            [.rejected("customer_id is longer than 65536 bytes")],
            make: HostileCase.auditing("subscribers.jsonl", subscriber(longID))),
        .read(
            "a webhook event whose `app_user_id` is 70,000 bytes", "33.11",
            [.rejected("event.app_user_id is longer than 65536 bytes")],
            make: HostileCase.auditing(
                "webhooks.jsonl",
                webhook(#""type":"RENEWAL","original_app_user_id":"good","app_user_id":"\#(longID)""#))),
        .refused(
            "a RevenueCat customer list naming `app_user_id` twice", "33.11",
            .line("list.csv:1: error: column \"app_user_id\" appears twice in the header"),
            make: HostileCase.auditing("list.csv", "app_user_id,first_seen_at,app_user_id\na,,b\n")),
        .read(
            "a subscriber response that repeats a key", "33.11",
            [.rejected("duplicate key original_application_version at line 1")],
            make: HostileCase.auditing(
                "subscribers.jsonl", subscriber("dup", extra: #","original_application_version":"900""#))),
        .read(
            "a customer id holding U+202E (right-to-left override)", "33.12",
            [.file("out/latest/report.html", contains: #"evil\u202Ecod.exe"#)],
            make: HostileCase.auditing("evil.csv", "customer_id,platform\nevil\u{202E}cod.exe,ios\n")),
        .read(
            "a grandfathered customer RevenueCat grants nothing, whose id is `..`", "33.12",
            [.file("out/latest/grants.jsonl", contains: "/v1/subscribers/%2E%2E/entitlements/")],
            make: HostileCase.auditing("subscribers.jsonl", subscriber(".."))),
    ]
}
