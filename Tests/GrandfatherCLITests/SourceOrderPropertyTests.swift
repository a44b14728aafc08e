import Foundation
import Testing

/// Issue 51, acceptance 3: for each source, the sample's records permuted, some repeated
/// (exact duplicates, within a file and across files) and split across 1 to 4 files give the
/// `customers.csv` and snapshot tables the sample's own files give (`AuditOutcome` says what
/// is compared). Every input's place among the arguments is drawn too, the other sources'
/// files included.
///
/// Each test makes `SOURCE_ORDER_DRAWS` draws (default 6) from a seed drawn afresh on every run;
/// a failure names the run's seed (`SOURCE_ORDER_SEED=…` replays every test's draws) and the
/// draw's (`SOURCE_ORDER_DRAW_SEED=…` replays that draw alone), the draw's pieces as record
/// indices, and the folder the run was made in.
@Suite struct SourceOrderPropertyTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["SOURCE_ORDER_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
    static let draws = environment["SOURCE_ORDER_DRAWS"].flatMap { Int($0) } ?? 6

    /// Canonical CSV, a JSON array and JSON Lines (the array's elements may become lines, and
    /// the lines an array).
    @Test func canonicalFiles() throws {
        try Self.check(
            SourceScenario(
                name: "canonical", policy: "policy.json", asOf: SampleData.asOf,
                pools: [
                    // SPEC §8.7: of customer rows with one id, the first given is accepted and a
                    // later different one rejected (the sample's `c16` twice), so a draw keeps the
                    // rows of one id, and the file's pieces, in their order. (No id is both in
                    // the CSV and in the JSON array, whose pieces are drawn apart.)
                    try RecordPool.delimited("customers", ["customers.csv"]).firstWins {
                        String($0.prefix { $0 != "," })
                    },
                    try .jsonArray("customers-late", "customers-late.json", asLines: true),
                    try .delimited("transactions", ["transactions.csv"]),
                    try .jsonLines("transactions-2024", ["transactions-2024.jsonl"], asArray: true),
                ]))
    }

    /// Signed app transactions one a line, a transaction history response (its signed
    /// transactions also given as a JSON array of JWS or one a line), a status response
    /// (its entries split across responses) and notifications (lines or an array).
    @Test func appStoreFiles() throws {
        let history = try SampleFiles.text("apple/transaction-history.json")
        let signed = try #require(JSONSlices.member("signedTransactions", of: history))
        let statuses = try SampleFiles.text("apple/subscription-statuses.json")
        let groups = JSONSlices.elements(try #require(JSONSlices.member("data", of: statuses)))
        #expect(groups.count == 1, "the sample's status response holds one subscription group")
        let group = try #require(groups.first)
        let entries = JSONSlices.elements(try #require(JSONSlices.member("lastTransactions", of: group)))
        let lines = RecordPool.Form(fileExtension: "txt") { $0.map { $0 + "\n" }.joined() }
        try Self.check(
            SourceScenario(
                name: "App Store", policy: "apple/policy.json", asOf: "2026-11-01T00:00:00Z",
                options: ["--trusted-root", "sample-root.der"], support: ["apple/sample-root.der"],
                pools: [
                    RecordPool(
                        stem: "app-transactions", originals: ["apple/app-transactions.txt"],
                        records: try SampleFiles.text("apple/app-transactions.txt").split(separator: "\n").map(
                            String.init),
                        forms: [lines]),
                    RecordPool(
                        stem: "transaction-history", originals: ["apple/transaction-history.json"],
                        records: JSONSlices.elements(signed),
                        forms: [
                            RecordPool.Form(fileExtension: "json") {
                                JSONSlices.replacing("signedTransactions", in: history, with: JSONSlices.array($0))
                            },
                            .array,
                            RecordPool.Form(fileExtension: "txt") {
                                $0.map { $0.dropFirst().dropLast() + "\n" }.joined()
                            },
                        ]),
                    RecordPool(
                        stem: "subscription-statuses", originals: ["apple/subscription-statuses.json"],
                        records: entries,
                        forms: [
                            RecordPool.Form(fileExtension: "json") {
                                let group = JSONSlices.replacing(
                                    "lastTransactions", in: group, with: JSONSlices.array($0))
                                return JSONSlices.replacing("data", in: statuses, with: "[" + group + "]")
                            }
                        ]),
                    try .jsonLines("notifications", ["apple/notifications.jsonl"], asArray: true),
                ]))
    }

    /// RevenueCat's Scheduled Data Export. Redeliveries of a transaction are merged by their
    /// `updated_at`, not by their order (SPEC §9), so its rows are permuted freely. Beside the
    /// sample's redelivery (`rc-gus`'s refund, a later `updated_at`), one more delivery of
    /// `rc-eve`'s row at the same `updated_at` with a refund: a conflicting duplicate, every
    /// version used whatever the order (SPEC §8.23).
    @Test func revenueCatExport() throws {
        let export = try RecordPool.delimited("transactions-export", ["revenuecat/transactions-export.csv"])
        let eve = try #require(export.records.first { $0.hasPrefix("play_store,rc-eve,") })
        let refunded = eve.replacingOccurrences(of: ",5,,GBP,", with: ",5,2026-10-25 10:00:00,GBP,")
        #expect(refunded != eve)
        try Self.check(Self.revenueCat(export.adding([refunded])))
    }

    /// RevenueCat's customer list (semicolons). A repeated `app_user_id` follows SPEC §8.7 within
    /// the list, so rows of one id keep their order (the sample repeats none).
    @Test func revenueCatCustomerList() throws {
        try Self.check(
            Self.revenueCat(
                try RecordPool.delimited("customer-list", ["revenuecat/customer-list.csv"]).firstWins {
                    String($0.prefix { $0 != ";" })
                }))
    }

    /// RevenueCat's subscriber responses, as JSON Lines or an array. Bodies of one
    /// `original_app_user_id` are fetches of one record: the one fetched last stands, then the
    /// greater by content (docs/RevenueCat.md), so they are permuted freely. Beside the sample's,
    /// three more bodies: `rc-ben` fetched ten days earlier, with no version and another
    /// subscription (superseded whole); `rc-ann` fetched at the same instant with another
    /// version (content decides which stands); `rc-dee` with no `request_date` and another
    /// version (older than any dated body).
    @Test func revenueCatSubscriberResponses() throws {
        let responses = try RecordPool.jsonLines("subscribers", ["revenuecat/subscribers.jsonl"], asArray: true)
        func body(of id: String) throws -> String {
            try #require(responses.records.first { $0.contains("\"original_app_user_id\": \"\(id)\"") })
        }
        let extras = [
            try body(of: "rc-ben").replacingOccurrences(
                of: "\"2026-10-31T12:00:00Z\"", with: "\"2026-10-20T12:00:00Z\""
            )
            .replacingOccurrences(
                of: "\"original_application_version\": \"415\"", with: "\"original_application_version\": null"
            )
            .replacingOccurrences(of: "410000000000101", with: "410000000000999"),
            try body(of: "rc-ann").replacingOccurrences(
                of: "\"original_application_version\": \"380\"", with: "\"original_application_version\": \"420\""),
            try body(of: "rc-dee").replacingOccurrences(of: "\"request_date\": \"2026-10-31T12:00:00Z\", ", with: "")
                .replacingOccurrences(
                    of: "\"original_application_version\": \"300\"", with: "\"original_application_version\": \"100\""),
        ]
        #expect(Set(extras).isDisjoint(with: responses.records) && Set(extras).count == 3)
        try Self.check(Self.revenueCat(responses.adding(extras)))
    }

    /// RevenueCat's webhook events: merges applied in the order of `event_timestamp_ms`, whatever
    /// the files' order.
    @Test func revenueCatWebhooks() throws {
        try Self.check(Self.revenueCat(try .jsonLines("webhooks", ["revenuecat/webhooks.jsonl"], asArray: true)))
    }

    /// App Store Connect's Summary Sales Reports, beside the sample's customers. A report is a
    /// unit: each row counts copies (`Units`), so a repeated row is more copies sold, and a
    /// report's period is its own, so its rows are never split across files. What the tool
    /// promises (docs/Sales.md) is that the same report given twice, by another path, plain or
    /// gzipped, is counted once: each report's rows are permuted, and it is given again as
    /// copies of its bytes, the arguments' order drawn.
    @Test func appStoreSalesReports() throws {
        try Self.check(
            SourceScenario(
                name: "App Store sales reports", policy: "policy.json", asOf: "2026-11-01T00:00:00Z",
                context: ["customers.csv", "transactions.csv"],
                pools: try SampleData.salesReports.map { name in
                    try RecordPool.delimited("apple-sales", ["apple-sales/\(name)"], fileExtension: "txt").unit()
                }))
    }

    /// Google Play's sales reports, with the claims their orders date and the earnings report
    /// listing the same orders. Every order's charge and full refund count once however many
    /// rows and reports give them, at the earliest row (docs/Sales.md), so rows are repeated
    /// and split across reports like any other source's. Beside the sample's, three more
    /// charges of its orders: `and-7c1e`'s order charged again after the cutover, the order
    /// charged at no price a minute after the cutover charged at a price two minutes before it
    /// (which then stands), and an order charged again at the same second from another country
    /// (the lesser by content stands).
    @Test func googlePlaySalesReports() throws {
        let reports = try RecordPool.delimited(
            "salesreport", ["google-play/salesreport_202502.csv", "google-play/salesreport_202503.csv"])
        let claimed = try #require(reports.records.first { $0.hasPrefix("GPA.3301-1111-2222-10001,") })
        let free = try #require(reports.records.first { $0.hasPrefix("GPA.3301-1111-2222-10006,") })
        let german = try #require(reports.records.first { $0.hasPrefix("GPA.3301-1111-2222-10002,") })
        let extras = [
            claimed.replacingOccurrences(of: ",2025-02-03,1738577700,", with: ",2025-03-10,1741601700,"),
            free.replacingOccurrences(of: ",1741107660,", with: ",1741107480,")
                .replacingOccurrences(of: ",USD,0.00,0.00,0.00,", with: ",USD,3.99,0.00,3.99,"),
            german.replacingOccurrences(of: ",EUR,4.49,0.00,4.49,,,,DE,", with: ",EUR,4.49,0.00,4.49,,,,AT,"),
        ]
        #expect(Set(extras).isDisjoint(with: reports.records) && Set(extras).count == 3)
        try Self.check(
            SourceScenario(
                name: "Google Play sales reports", policy: "policy.json", basis: "either",
                asOf: "2026-11-01T00:00:00Z",
                context: [
                    "customers.csv", "transactions.csv", "google-play/claimed-orders.csv",
                    "google-play/earnings_202502_1234567890-1.zip",
                ],
                pools: [reports.adding(extras)]))
    }

    /// Claimed Google Play orders, against the sales and earnings reports, under the basis
    /// `either` (under `version` a claim grandfathers nobody). The same claim twice is an exact
    /// duplicate. Beside the sample's claims, one customer claims three orders: one charged a
    /// minute before the cutover, one a minute after, one no report lists; the earliest charge
    /// stands whatever the claims' order.
    @Test func claimedOrders() throws {
        let claims = try RecordPool.delimited("claimed-orders", ["google-play/claimed-orders.csv"]).adding([
            "and-f00d,GPA.3301-1111-2222-10006", "and-f00d,GPA.3301-1111-2222-10005",
            "and-f00d,GPA.3301-1111-2222-10098",
        ])
        try Self.check(
            SourceScenario(
                name: "claimed orders", policy: "policy.json", basis: "either", asOf: "2026-11-01T00:00:00Z",
                context: [
                    "customers.csv", "transactions.csv", "google-play/salesreport_202502.csv",
                    "google-play/salesreport_202503.csv", "google-play/earnings_202502_1234567890-1.zip",
                ],
                pools: [claims]))
    }

    /// Stored licensing verdicts (Play Integrity and LVL), as JSON Lines or an array, under the
    /// basis `either`. The same verdict twice is an exact duplicate. Beside the sample's, a
    /// second verdict of `and-77d3`, licensed before the cutover where the sample's is after
    /// it: the earliest licensed verdict stands whatever the order.
    @Test func licensingVerdicts() throws {
        let verdicts = try RecordPool.jsonLines(
            "licensing-verdicts", ["google-play/licensing-verdicts.jsonl"], asArray: true)
        let later = try #require(verdicts.records.first { $0.contains("\"and-77d3\"") })
        let earlier = later.replacingOccurrences(of: "\"1743465600000\"", with: "\"1740000000000\"")
        #expect(earlier != later)
        try Self.check(
            SourceScenario(
                name: "licensing verdicts", policy: "policy.json", basis: "either", asOf: "2026-11-01T00:00:00Z",
                context: ["customers.csv", "transactions.csv"],
                pools: [verdicts.adding([earlier])]))
    }

    /// Google Play subscriptions: stored responses (lines, an array, or an object keyed by
    /// token), notifications (lines or an array; a repeated one is a Pub/Sub redelivery of its
    /// `messageId`) and voided purchases (list responses, or entries one a line). Beside the
    /// sample's, two records whose standing issue 51 took from the order (item 3) to their
    /// content: a second response of `and-7c1e`'s token at the same expiry naming another
    /// account, and a notification with the `messageId` of the sample's first but revoking
    /// its token.
    @Test func googlePlaySubscriptions() throws {
        let voided = try SampleFiles.text("google-play/voidedpurchases.json")
        let voids = JSONSlices.elements(try #require(JSONSlices.member("voidedPurchases", of: voided)))
        let stored = try RecordPool.jsonLines("subscriptionsv2", ["google-play/subscriptionsv2.jsonl"], asArray: true)
        let response = try #require(stored.records.first { $0.contains("\"and-7c1e\"") })
        let responses = RecordPool(
            stem: stored.stem, originals: stored.originals, records: stored.records,
            forms: stored.forms + [
                // An object keyed by token holds each token once: a piece holding a token twice
                // is written as an array instead.
                RecordPool.Form(fileExtension: "json") { records in
                    let tokens = records.map { JSONSlices.string("purchaseToken", of: $0) ?? "" }
                    guard Set(tokens).count == tokens.count else { return JSONSlices.array(records) }
                    let members = zip(tokens, records).map { "\"\($0)\": \($1)" }
                    return "{\n" + members.joined(separator: ",\n") + "\n}\n"
                }
            ]
        ).adding([response.replacingOccurrences(of: "\"and-7c1e\"", with: "\"and-7c1f\"")])
        let notifications = try RecordPool.jsonLines("rtdn-log", ["google-play/rtdn-log.jsonl"], asArray: true)
        let renewal = try #require(notifications.records.first)
        let message = try #require(JSONSlices.member("message", of: renewal))
        let data = try #require(JSONSlices.string("data", of: message))
        let decoded = String(decoding: try #require(Data(base64Encoded: data)), as: UTF8.self)
        let revocation = decoded.replacingOccurrences(of: "\"notificationType\":2,", with: "\"notificationType\":12,")
        #expect(revocation != decoded)
        let redelivered = renewal.replacingOccurrences(of: data, with: Data(revocation.utf8).base64EncodedString())
        try Self.check(
            SourceScenario(
                name: "Google Play subscriptions", policy: "policy.json", asOf: "2026-11-01T00:00:00Z",
                pools: [
                    responses,
                    notifications.adding([redelivered]),
                    RecordPool(
                        stem: "voidedpurchases", originals: ["google-play/voidedpurchases.json"], records: voids,
                        forms: [
                            RecordPool.Form(fileExtension: "json") {
                                JSONSlices.replacing("voidedPurchases", in: voided, with: JSONSlices.array($0))
                            },
                            .lines,
                        ]),
                ]))
    }

    /// The RevenueCat sample with `pool`'s file drawn and the others given as they are.
    static func revenueCat(_ pool: RecordPool) -> SourceScenario {
        let files = [
            "subscribers.jsonl", "customers.csv", "transactions-export.csv", "customer-list.csv", "webhooks.jsonl",
        ].map { "revenuecat/" + $0 }
        return SourceScenario(
            name: "RevenueCat \(pool.stem)", policy: "revenuecat/policy.json", asOf: "2026-11-01T00:00:00Z",
            context: files.filter { !pool.originals.contains($0) }, pools: [pool])
    }

    /// The draws' seeds for one source: `SOURCE_ORDER_DRAW_SEED` alone, or `draws` of them from
    /// the run's seed and the source's name.
    static func drawSeeds(_ name: String) -> [UInt64] {
        if let one = environment["SOURCE_ORDER_DRAW_SEED"].flatMap({ UInt64($0) }) { return [one] }
        // FNV-1a of the name, so that each source draws its own seeds from the run's.
        let salt = name.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        var random = SeededGenerator(seed: seed ^ salt)
        return (0..<draws).map { _ in random.next() }
    }

    /// Audits the sample's files, then each draw, and records every draw that differs.
    static func check(_ scenario: SourceScenario) throws {
        guard let original = try scenario.auditOriginal() else { return }
        let context = scenario.context.map(SourceScenario.baseName)
        for draw in drawSeeds(scenario.name) {
            let inputs = try DrawnInputs(pools: scenario.pools, context: context, seed: draw)
            let (outcome, cli) = try scenario.audit(
                files: inputs.files, arguments: inputs.arguments, describing: "draw \(draw)")
            guard let outcome, outcome != original else { continue }
            Issue.record(
                """
                \(scenario.name): draw \(draw) differs from the sample's files \
                (SOURCE_ORDER_DRAW_SEED=\(draw) replays it; SOURCE_ORDER_SEED=\(seed) the run's draws)
                arguments: \(inputs.arguments.joined(separator: " "))
                pieces: \(inputs.description.joined(separator: "; "))
                folder: \(cli.folder.path)
                the sample's (-) and the draw's (+):\(original.differences(from: outcome))
                """)
        }
    }
}
