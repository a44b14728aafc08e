import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Google Play subscriptions (docs/GooglePlay.md): `subscriptionsv2` responses, real-time
/// developer notifications and voided purchases, weighed together into SPEC §2 transactions.
@Suite struct PlaySubscriptionTests {
    /// A stored response; `PolicySpec`'s cutover is 2024-03-01, its as-of 2024-06-01.
    static func response(
        _ token: String, customer: String? = nil, state: String = "ACTIVE",
        start: String? = "2024-04-01T10:00:00.123456789Z",
        expiry: String = "2024-07-01T10:00:00Z", product: String = "pro.monthly", linked: String? = nil,
        extra: String = "", item: String = ""
    ) -> String {
        var fields = [#""purchaseToken":"\#(token)""#, #""kind":"androidpublisher#subscriptionPurchaseV2""#]
        if let start { fields.append(#""startTime":"\#(start)""#) }
        fields.append(#""subscriptionState":"SUBSCRIPTION_STATE_\#(state)""#)
        if let customer {
            fields.append(#""externalAccountIdentifiers":{"obfuscatedExternalAccountId":"\#(customer)"}"#)
        }
        if let linked { fields.append(#""linkedPurchaseToken":"\#(linked)""#) }
        if !extra.isEmpty { fields.append(extra) }
        fields.append(
            #""lineItems":[{"productId":"\#(product)","expiryTime":"\#(expiry)","autoRenewingPlan":{"autoRenewEnabled":true}\#(item)}]"#
        )
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A Pub/Sub push envelope around a notification.
    static func envelope(_ id: String, _ notification: String) -> String {
        let data = Data(notification.utf8).base64EncodedString()
        return
            #"{"message":{"attributes":{},"data":"\#(data)","messageId":"\#(id)"},"subscription":"projects/p/subscriptions/s"}"#
    }

    static func subscriptionNotification(
        _ token: String, type: Int, at millis: String, package: String = "com.example.maps"
    )
        -> String
    {
        #"{"version":"1.0","packageName":"\#(package)","eventTimeMillis":"\#(millis)","subscriptionNotification":{"version":"1.0","notificationType":\#(type),"purchaseToken":"\#(token)","subscriptionId":"pro.monthly"}}"#
    }

    static func lines(_ rows: [String]) -> String { rows.joined(separator: "\n") + "\n" }

    @Test func aResponseIsATransactionOfItsToken() throws {
        let responses = Self.lines([
            Self.response(
                "tok-a", customer: "alice",
                item:
                    #","latestSuccessfulOrderId":"GPA.1-2..3","autoRenewingPlan":{"recurringPrice":{"currencyCode":"EUR","units":"4","nanos":990000000}}"#
            ).replacingOccurrences(of: #","autoRenewingPlan":{"autoRenewEnabled":true}"#, with: ""),
            Self.response("tok-b", customer: "bob", state: "EXPIRED", expiry: "2024-05-01T10:00:00Z"),
            Self.response("tok-t", customer: "tess", extra: #""testPurchase":{}"#),
        ])
        let run = try AuditFixture.run(
            [FixtureFile("subscriptions.jsonl", responses)], policy: PolicySpec(basis: "date"))
        #expect(run.input("subscriptions.jsonl")?.format == .playSubscriptions)
        #expect(run.input("subscriptions.jsonl")?.kind == .transactions)
        #expect(run.input("subscriptions.jsonl")?.rowsAccepted == 3)
        #expect(run.input("subscriptions.jsonl")?.sandboxRows == 1)
        #expect(run.customerClass("alice") == .subscriber)
        #expect(run.result("alice")?.customer.platform == .android)
        #expect(run.result("alice")?.entitlements.map(\.transactionID) == ["tok-a"])
        #expect(run.result("alice")?.entitlements.first?.expiresDate == Instant(seconds: 1_719_828_000))
        #expect(run.customerClass("bob") == .lapsed)
        #expect(run.result("tess") == nil, "a test purchase is sandbox: dropped, and makes no customer (SPEC §8.8)")

        let snapshot = try #require(
            try Self.snapshot(Self.response("tok-a", customer: "alice", item: #","latestSuccessfulOrderId":"GPA.1""#)))
        #expect(snapshot.start == Instant(microseconds: 1_711_965_600_123_456))
        #expect(snapshot.items.first?.latestOrderID == "GPA.1")
        #expect(snapshot.items.first?.renews == true)
    }

    static func snapshot(_ text: String, token: String? = nil) throws -> PlaySubscriptionRules.Snapshot? {
        guard case .element(let value)? = JSONDocuments.units(Array(text.utf8)).first else { return nil }
        return try PlaySubscriptionResponse.read(.init(token: token, body: value)).get()
    }

    @Test func pricesPlansAndStatesMapOntoSPECFields() throws {
        let priced = try #require(
            try Self.snapshot(
                #"{"purchaseToken":"t","subscriptionState":"SUBSCRIPTION_STATE_ON_HOLD","startTime":"2024-01-01T00:00:00Z","lineItems":[{"productId":"p","autoRenewingPlan":{"recurringPrice":{"currencyCode":"USD","units":"12","nanos":500000000}}},{"productId":"q","prepaidPlan":{"allowExtendAfterTime":"2024-02-01T00:00:00Z"}}]}"#
            ))
        #expect(priced.items.map(\.price) == ["12.5", nil])
        #expect(priced.items.map(\.currency) == ["USD", nil])
        #expect(priced.items.map(\.renews) == [true, false])
        #expect(priced.state.renewalState == .inBillingRetry)
        let future = try #require(
            try Self.snapshot(#"{"token":"t","subscriptionState":"SUBSCRIPTION_STATE_SOMETHING_NEW","lineItems":[]}"#))
        #expect(future.state == .unspecified && future.state.renewalState == nil)
        let mapping: [PlaySubscriptionRules.State: RenewalState?] = [
            .active: .subscribed, .canceled: .subscribed, .paused: .subscribed, .inGracePeriod: .inGracePeriod,
            .expired: .expired, .pending: nil,
        ]
        for (state, renewal) in mapping { #expect(state.renewalState == renewal, "\(state)") }
        // Keyed by token: the object's keys are the tokens.
        let keyed = Array(
            #"{"tok-1":{"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","lineItems":[]},"tok-2":{"lineItems":[]}}"#.utf8
        )
        guard case .element(let value)? = JSONDocuments.units(keyed).first else { Issue.record("no value"); return }
        #expect(PlaySubscriptionResponse.recognizes(value))
        #expect(PlaySubscriptionResponse.entries(value).map(\.token) == ["tok-1", "tok-2"])
        // Inside a record that names the token (and the team's own customer id).
        let wrapped = Array(
            #"{"purchaseToken":"tok-w","customer_id":"own","subscription":{"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","startTime":"2024-04-01T00:00:00Z","externalAccountIdentifiers":{"obfuscatedExternalAccountId":"hashed"},"lineItems":[{"productId":"p"}]}}"#
                .utf8)
        guard case .element(let record)? = JSONDocuments.units(wrapped).first else { Issue.record("no value"); return }
        #expect(PlaySubscriptionResponse.recognizes(record))
        let entries = PlaySubscriptionResponse.entries(record)
        #expect(entries.count == 1)
        let inner = try PlaySubscriptionResponse.read(try #require(entries.first)).get()
        #expect(inner.token == "tok-w" && inner.customerID == "own" && inner.items.map(\.productID) == ["p"])
        // Without the team's own id: the obfuscated account id, else the linked account's.
        let linked = try #require(
            try Self.snapshot(
                #"{"token":"t","externalAccountIdentifiers":{"externalAccountId":"linked","obfuscatedExternalProfileId":"profile"},"lineItems":[]}"#
            ))
        #expect(linked.customerID == "linked")
        let both = try #require(
            try Self.snapshot(
                #"{"token":"t","externalAccountIdentifiers":{"externalAccountId":"linked","obfuscatedExternalAccountId":"hashed"},"lineItems":[]}"#
            ))
        #expect(both.customerID == "hashed")
    }

    @Test func unreadableResponsesAreRejectedWithTheirLine() throws {
        let rows = [
            #"{"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","lineItems":[]}"#,
            Self.response("t2", customer: "c2", start: "yesterday"),
            #"{"purchaseToken":"t3","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE"}"#,
            #"{"purchaseToken":"t4","startTime":"2024-04-01T00:00:00Z","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","lineItems":[{"expiryTime":"2024-05-01T00:00:00Z"}]}"#,
            #"{"purchaseToken":"t5","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","lineItems":[{"productId":"p","expiryTime":"2024-05-01T00:00:00Z"}]}"#,
            #"{"purchaseToken":7,"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","lineItems":[]}"#,
            Self.response("t7", customer: "ok"),
            Self.response("t8", customer: "pending", state: "PENDING", start: nil),
        ]
        let run = try AuditFixture.run([FixtureFile("subscriptions.jsonl", Self.lines(rows))])
        let rejections = run.rejections("subscriptions.jsonl")
        #expect(rejections.map(\.line) == [1, 2, 3, 4, 5, 6])
        #expect(rejections[0].reason.contains("purchaseToken is missing"))
        #expect(rejections[1].reason.contains("startTime"))
        #expect(rejections[2].reason.contains("lineItems is missing"))
        #expect(rejections[3].reason.contains("productId is missing"))
        #expect(rejections[4].reason.contains("startTime is missing"))
        #expect(rejections[5].reason.contains("not a string"))
        #expect(run.customerClass("ok") == .subscriber)
        #expect(run.result("pending") == nil, "a pending purchase bought nothing yet")
        #expect(run.input("subscriptions.jsonl")?.rowsAccepted == 2)
    }

    @Test func chainsSupersedingAndCustomersAcrossTokens() throws {
        let rows = [
            // An upgrade: tok-2 carries on tok-1; only tok-1 names the customer.
            Self.response("tok-1", customer: "ann", state: "EXPIRED", expiry: "2024-04-15T00:00:00Z"),
            Self.response("tok-2", start: "2024-04-15T00:00:00Z", product: "pro.lifetime", linked: "tok-1"),
            // A later response for tok-3 stands; an older one given after it does not.
            Self.response("tok-3", customer: "cy", expiry: "2024-07-01T00:00:00Z"),
            Self.response("tok-3", customer: "cy", state: "EXPIRED", expiry: "2024-05-01T00:00:00Z"),
            // No customer anywhere in its chain.
            Self.response("tok-9", linked: "tok-gone"),
        ]
        let run = try AuditFixture.run([FixtureFile("subscriptions.jsonl", Self.lines(rows))])
        #expect(run.result("ann")?.entitlements.map(\.transactionID) == ["tok-2"])
        #expect(run.input("subscriptions.jsonl")?.superseded == 1)
        #expect(run.customerClass("cy") == .subscriber)
        #expect(run.flags("unlinked:tok-gone").contains("unlinked_transactions"))

        let snapshots = rows.compactMap { try? Self.snapshot($0) }
        let chains = PlaySubscriptionRules.Chains(Dictionary(snapshots.map { ($0.token, $0) }) { first, _ in first })
        #expect(chains.root(of: "tok-2") == "tok-1")
        #expect(chains.customer(of: "tok-2") == "ann")
        #expect(chains.root(of: "tok-9") == "tok-gone")
        // A loop is one chain, starting at its least token whichever token is asked about.
        let loop = try [
            Self.snapshot(Self.response("x", linked: "y")),
            Self.snapshot(Self.response("y", customer: "z", linked: "x")),
        ].compactMap { $0 }
        let looped = PlaySubscriptionRules.Chains(Dictionary(uniqueKeysWithValues: loop.map { ($0.token, $0) }))
        #expect(looped.root(of: "x") == "x" && looped.root(of: "y") == "x" && looped.customer(of: "x") == "z")
    }

    @Test func notificationsAndVoidsRevokeGraceAndAreRejectedWithoutAResponse() throws {
        // 1717200000000 is the as-of; the grace period began 2024-05-28.
        let responses = Self.lines([
            Self.response("tok-g", customer: "gus", state: "IN_GRACE_PERIOD", expiry: "2024-06-04T00:00:00Z"),
            Self.response("tok-r", customer: "rita"),
            Self.response("tok-v", customer: "vic", item: #","latestSuccessfulOrderId":"GPA.9-9..2""#),
            Self.response("tok-w", customer: "wes"),
        ])
        let notifications = Self.lines([
            Self.envelope("m1", Self.subscriptionNotification("tok-g", type: 6, at: "1716854400000")),
            Self.envelope("m1", Self.subscriptionNotification("tok-g", type: 6, at: "1716854400000")),
            Self.subscriptionNotification("tok-r", type: 12, at: "1714521600000"),
            Self.envelope("m3", Self.subscriptionNotification("tok-zzz", type: 4, at: "1714521600000")),
            Self.envelope(
                "m4",
                #"{"version":"1.0","packageName":"com.example.maps","eventTimeMillis":"1","testNotification":{"version":"1.0"}}"#
            ),
            Self.envelope(
                "m5", Self.subscriptionNotification("tok-r", type: 2, at: "1714521600000", package: "com.other")),
            #"{"message":{"data":"!!notbase64","messageId":"m6"}}"#,
            #"{"data":"\#(Data(#"{"version":"1.0","packageName":"com.example.maps","eventTimeMillis":"1714521600000","oneTimeProductNotification":{"purchaseToken":"p","sku":"coins"}}"#.utf8).base64EncodedString())","messageId":"m7"}"#,
        ])
        let voided = #"""
            {"voidedPurchases":[
            {"kind":"androidpublisher#voidedPurchase","purchaseToken":"tok-v","orderId":"GPA.9-9..0","voidedTimeMillis":"1714521600000","voidedSource":"0"},
            {"kind":"androidpublisher#voidedPurchase","purchaseToken":"tok-w","orderId":"GPA.7","voidedTimeMillis":1714608000000},
            {"purchaseToken":"tok-unknown","voidedTimeMillis":"1714608000000"},
            {"purchaseToken":"tok-w"}
            ]}

            """#
        let run = try AuditFixture.run(
            [
                FixtureFile("subscriptions.jsonl", responses), FixtureFile("rtdn.jsonl", notifications),
                FixtureFile("voided.json", voided),
            ], policy: PolicySpec(sales: #"{"paid_app": ["com.example.maps"]}"#))
        #expect(run.input("rtdn.jsonl")?.format == .playNotifications)
        #expect(run.input("voided.json")?.format == .playVoided)
        #expect(run.input("rtdn.jsonl")?.exactDuplicates == 1)
        // Grace: the paid period ended when the notification says; grace runs to the expiry.
        #expect(run.customerClass("gus") == .subscriber)
        #expect(run.flags("gus").contains("in_grace_period"))
        #expect(run.result("gus")?.entitlements.first?.source == .gracePeriod)
        #expect(run.flags("rita").contains("refunded") && run.customerClass("rita") == .lapsed)
        // A void of an earlier renewal's order has no bearing on the current period.
        #expect(run.customerClass("vic") == .subscriber && !run.flags("vic").contains("refunded"))
        #expect(run.flags("wes").contains("refunded"))
        let notices = run.rejections("rtdn.jsonl")
        #expect(notices.map(\.line) == [4, 6, 7])
        #expect(notices[0].reason.contains("is in no subscriptionsv2 response"))
        #expect(notices[1].reason.contains("is not an app sales.paid_app names"))
        #expect(notices[2].reason.contains("not base64"))
        let voids = run.rejections("voided.json")
        #expect(voids.map(\.line) == [4, 5])
        #expect(voids[1].reason.contains("voidedTimeMillis is missing"))
        #expect(run.input("voided.json")?.rowsRead == 4)
    }

    /// Each shape is told by the keys of its first value, in every form it is stored in, before
    /// the App Store's, RevenueCat's and the canonical sources can claim it.
    @Test func eachShapeIsRecognisedByItsKeys() throws {
        let bare =
            #"{"data":"\#(Data("{}".utf8).base64EncodedString())","messageId":"1","publishTime":"2024-01-01T00:00:00Z"}"#
        let cases: [(String, InputFormat)] = [
            (Self.response("t", customer: "c") + "\n", .playSubscriptions),
            ("[" + Self.response("t", customer: "c") + "]\n", .playSubscriptions),
            (#"{"tok-1":{"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","lineItems":[]}}"#, .playSubscriptions),
            (Self.envelope("1", Self.subscriptionNotification("t", type: 4, at: "1")) + "\n", .playNotifications),
            (bare + "\n", .playNotifications),
            (Self.subscriptionNotification("t", type: 4, at: "1") + "\n", .playNotifications),
            (#"{"voidedPurchases":[]}"#, .playVoided),
            (#"[{"purchaseToken":"t","voidedTimeMillis":"1"}]"#, .playVoided),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, (contents, format)) in cases.enumerated() {
            let url = folder.appendingPathComponent("file-\(index)")
            try Data(contents.utf8).write(to: url)
            #expect(try InputRecognizer.recognize(path: url.path).description.format == format, "\(contents)")
        }
    }

    /// A Pub/Sub pull response's messages are notifications at their own lines; the
    /// reference page's envelope, whose `data` is the notification's schema rather than one,
    /// is refused as not JSON.
    @Test func pulledMessagesAndTheSchemaEnvelope() throws {
        let schema = Data(#"{ "version": string, "packageName": string, "eventTimeMillis": long }"#.utf8)
        let pulled = Self.envelope("p1", Self.subscriptionNotification("tok-r", type: 12, at: "1714521600000"))
            .replacingOccurrences(of: #","subscription":"projects/p/subscriptions/s""#, with: #","ackId":"a1""#)
        let rows = [
            #"{"receivedMessages":["#, pulled + ",",
            #"{"ackId":"a2","message":{"data":"\#(schema.base64EncodedString())","messageId":"p2"}}"#, "]}",
        ]
        let run = try AuditFixture.run([
            FixtureFile("subscriptions.jsonl", Self.response("tok-r", customer: "rita") + "\n"),
            FixtureFile("pulled.json", rows.joined(separator: "\n") + "\n"),
        ])
        #expect(run.input("pulled.json")?.format == .playNotifications)
        #expect(run.input("pulled.json")?.rowsRead == 2)
        #expect(run.flags("rita").contains("refunded"))
        #expect(run.rejections("pulled.json").map(\.line) == [3])
        #expect(run.rejections("pulled.json").first?.reason.contains("message.data is not JSON") == true)
    }

    /// Rows that share a line (a list response, or responses keyed by token, written on one
    /// line) are each accounted for: two bad ones are two rejections at that line.
    @Test func rowsOnOneLineAreEachAccountedFor() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "keyed.json",
                #"{"t1":{"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE"},"t2":{"lineItems":[]},"t3":{"lineItems":7}}"#
                    + "\n"),
            FixtureFile(
                "voided.json", #"{"voidedPurchases":[{"purchaseToken":"t2"},{"voidedTimeMillis":"1"}]}"# + "\n"),
        ])
        #expect(run.input("keyed.json")?.rowsRead == 3)
        #expect(run.input("keyed.json")?.rowsRejected == 3)
        #expect(run.rejections("keyed.json").map(\.line) == [1, 1, 1])
        #expect(run.input("voided.json")?.rowsRejected == 2)
        #expect(run.input("voided.json")?.rowsAccepted == 0)
    }

    /// A Play plan is a source of a product's type of its own: the tallies of what each source
    /// stated have room for every source.
    @Test func everyTypeSourceHasItsTally() {
        #expect(ProductEvidence.Tally(name: "p").counts.count == 4 * ProductTypeSource.allCases.count)
        #expect(ProductTypeSource.playSubscription < .fallback)
    }

    @Test func earlierOrdersAreTheRenewalsBeforeTheLatest() throws {
        let snapshot = try #require(
            try Self.snapshot(Self.response("t", item: #","latestSuccessfulOrderId":"GPA.1-2..4""#)))
        #expect(PlaySubscriptionRules.isEarlierOrder("GPA.1-2..3", than: snapshot))
        #expect(PlaySubscriptionRules.isEarlierOrder("GPA.1-2", than: snapshot))
        #expect(!PlaySubscriptionRules.isEarlierOrder("GPA.1-2..4", than: snapshot))
        #expect(!PlaySubscriptionRules.isEarlierOrder("GPA.1-2..5", than: snapshot))
        #expect(!PlaySubscriptionRules.isEarlierOrder("GPA.8-8..1", than: snapshot))
    }
}
