import Foundation
import PropertyBased
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Issue 37, acceptance 2, for Play subscriptions: a drawn population of Android customers
/// whose subscriptions are canonical transactions (SPEC §2), and its twin, where the same
/// subscriptions are Google Play's own records: stored `subscriptionsv2` responses, a log of
/// real-time developer notifications (grace periods, revocations, renewals, redeliveries) and
/// a voided purchases list. Every customer gets the same class, grants and flags.
///
/// What the twin cannot express is not drawn: a subscription's renewals are one token (one
/// transaction), and Google Play has no family sharing, consumables or non-consumables.
@Suite struct PlaySubscriptionTwinTests {
    /// Where a drawn subscription stands at as-of, and so what Google Play says of it.
    enum Standing: CaseIterable {
        case active, canceled, expired, inGrace, graceOver, onHold, paused, revokedByVoid, revokedByNotice
    }

    struct Subscription {
        var token: String
        /// The token it carries on (`linkedPurchaseToken`), and the chain's first token.
        var linked: String?
        var root: String
        var product: String
        var prepaid: Bool
        var start: Instant
        /// The end of the paid period; for a grace period, where grace began.
        var paidUntil: Instant
        var standing: Standing
        var graceEnds: Instant?
        var revoked: Instant?
        var test: Bool
        /// Whether the response names the customer (an upgrade's may not: its chain does).
        var namesCustomer: Bool
    }

    struct Drawn {
        var id: String
        var purchased: Instant?
        var subscriptions: [Subscription]
    }

    /// `PolicySpec`'s cutover, 2024-03-01T00:00:00Z, and as-of, 2024-06-01T00:00:00Z.
    static let cutover: Int64 = 1_709_251_200
    static let asOf: Int64 = 1_717_200_000
    static let day: Int64 = 86_400

    static func draw(_ count: Int, using random: inout Xoshiro) -> [Drawn] {
        (0..<count).map { index in
            let id = "and-\(index)"
            let near = Bool.random(using: &random)
            let purchased: Instant? =
                Int.random(in: 0..<3, using: &random) == 0
                ? nil
                : Instant(
                    seconds: cutover
                        + (near
                            ? Int64.random(in: -day...day, using: &random)
                            : Int64.random(in: -300 * day...60 * day, using: &random)))
            var subscriptions: [Subscription] = []
            for number in 0..<Int.random(in: 0...2, using: &random) {
                let token = "tok-\(index)-\(number)"
                let upgrade = number == 1 && Bool.random(using: &random)
                let previous = upgrade ? subscriptions.last : nil
                subscriptions.append(
                    subscription(
                        token, after: previous, test: Int.random(in: 0..<12, using: &random) == 0, using: &random))
            }
            return Drawn(id: id, purchased: purchased, subscriptions: subscriptions)
        }
    }

    static func subscription(_ token: String, after previous: Subscription?, test: Bool, using random: inout Xoshiro)
        -> Subscription
    {
        let standing = Standing.allCases.randomElement(using: &random) ?? .active
        let prepaid = standing == .active && Int.random(in: 0..<4, using: &random) == 0
        let start =
            previous.map {
                // Before as-of, so that every drawn period is one Google Play could report.
                Instant(
                    seconds: min($0.paidUntil.wholeSeconds - Int64.random(in: 0...day, using: &random), asOf - 2 * day))
            }
            ?? Instant(seconds: asOf - Int64.random(in: 20 * day...200 * day, using: &random))
        let ahead = Instant(seconds: asOf + Int64.random(in: 1...40 * day, using: &random))
        let behind = Instant(
            seconds: max(start.wholeSeconds + day, asOf - Int64.random(in: day...15 * day, using: &random)))
        var drawn = Subscription(
            token: token, linked: previous?.token, root: previous?.root ?? token,
            product: prepaid ? "pass.30days" : ["pro.monthly", "nav.1year"].randomElement(using: &random) ?? "",
            prepaid: prepaid, start: start, paidUntil: ahead, standing: standing, graceEnds: nil, revoked: nil,
            test: test,
            namesCustomer: previous == nil || Bool.random(using: &random))
        switch standing {
        case .active, .canceled:
            if prepaid { drawn.paidUntil = Instant(seconds: start.wholeSeconds + 30 * day) }
        case .expired, .onHold, .paused:
            drawn.paidUntil = behind
        case .inGrace:
            drawn.paidUntil = behind
            drawn.graceEnds = Instant(seconds: asOf + Int64.random(in: 1...7 * day, using: &random))
        case .graceOver:
            drawn.paidUntil = behind
            drawn.graceEnds = Instant(seconds: min(behind.wholeSeconds + 7 * day, asOf - 1))
        case .revokedByVoid, .revokedByNotice:
            drawn.revoked = Instant(seconds: start.wholeSeconds + Int64.random(in: 1...10 * day, using: &random))
        }
        return drawn
    }

    static func customers(_ drawn: [Drawn]) -> FixtureFile {
        FixtureFile(
            "customers.csv",
            "customer_id,platform,original_purchase_date\n"
                + lines(drawn.map { "\($0.id),android,\($0.purchased?.iso8601 ?? "")" }))
    }

    /// The canonical twin: each subscription a transaction of SPEC §2.
    static func canonical(_ drawn: [Drawn]) -> [FixtureFile] {
        var rows: [String] = []
        for customer in drawn {
            for sub in customer.subscriptions {
                let renewal: String
                switch sub.standing {
                case .active, .canceled, .paused, .revokedByVoid, .revokedByNotice: renewal = "subscribed"
                case .expired: renewal = "expired"
                case .inGrace, .graceOver: renewal = "in_grace_period"
                case .onHold: renewal = "in_billing_retry"
                }
                let fields = [
                    sub.token, sub.root, customer.id, sub.product, sub.prepaid ? "non_renewing" : "auto_renewable",
                    sub.start.iso8601, sub.prepaid ? "" : sub.paidUntil.iso8601, sub.revoked?.iso8601 ?? "",
                    sub.test ? "sandbox" : "production", sub.prepaid ? "" : "4.99", sub.prepaid ? "" : "USD",
                    sub.prepaid ? "" : renewal,
                    sub.graceEnds?.iso8601 ?? "",
                ]
                rows.append(fields.joined(separator: ","))
            }
        }
        return [
            customers(drawn),
            FixtureFile(
                "transactions.csv",
                "transaction_id,original_transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,"
                    + "revocation_date,environment,price,currency,renewal_state,grace_period_expires_date\n"
                    + lines(rows)),
        ]
    }

    /// Google Play's twin: responses, notifications and voids.
    static func play(_ drawn: [Drawn], using random: inout Xoshiro) -> [FixtureFile] {
        var responses: [String] = []
        var notifications: [String] = []
        var voids: [String] = []
        var message = 0
        func notify(_ token: String, _ type: Int, _ at: Instant) {
            message += 1
            let body =
                #"{"version":"1.0","packageName":"com.example.maps","eventTimeMillis":"\#(at.wholeSeconds * 1000)","#
                + #""subscriptionNotification":{"version":"1.0","notificationType":\#(type),"purchaseToken":"\#(token)"}}"#
            let envelope =
                #"{"message":{"data":"\#(Data(body.utf8).base64EncodedString())","messageId":"\#(message)"},"#
                + #""subscription":"projects/p/subscriptions/rtdn"}"#
            notifications.append(envelope)
            // Pub/Sub delivers at least once: now and then twice.
            if Int.random(in: 0..<5, using: &random) == 0 { notifications.append(envelope) }
        }
        for customer in drawn {
            for sub in customer.subscriptions {
                let state: String
                switch sub.standing {
                case .active, .revokedByVoid, .revokedByNotice: state = "ACTIVE"
                case .canceled: state = "CANCELED"
                case .expired: state = "EXPIRED"
                case .inGrace, .graceOver: state = "IN_GRACE_PERIOD"
                case .onHold: state = "ON_HOLD"
                case .paused: state = "PAUSED"
                }
                let expiry = sub.graceEnds ?? sub.paidUntil
                let plan =
                    sub.prepaid
                    ? #""prepaidPlan":{}"#
                    : #""autoRenewingPlan":{"autoRenewEnabled":true,"recurringPrice":{"currencyCode":"USD","units":"4","nanos":990000000}}"#
                var fields = [
                    #""purchaseToken":"\#(sub.token)""#, #""kind":"androidpublisher#subscriptionPurchaseV2""#,
                    #""startTime":"\#(sub.start.iso8601)""#, #""subscriptionState":"SUBSCRIPTION_STATE_\#(state)""#,
                ]
                if sub.namesCustomer {
                    fields.append(#""externalAccountIdentifiers":{"obfuscatedExternalAccountId":"\#(customer.id)"}"#)
                }
                if let linked = sub.linked { fields.append(#""linkedPurchaseToken":"\#(linked)""#) }
                if sub.test { fields.append(#""testPurchase":{}"#) }
                fields.append(
                    #""lineItems":[{"productId":"\#(sub.product)","expiryTime":"\#(expiry.iso8601)",\#(plan),"latestSuccessfulOrderId":"GPA.\#(sub.token)..2"}]"#
                )
                let response = "{" + fields.joined(separator: ",") + "}"
                // An older response of the same token, expiring earlier, given before or after.
                if Int.random(in: 0..<4, using: &random) == 0 {
                    let older = response.replacingOccurrences(
                        of: "\"expiryTime\":\"\(expiry.iso8601)\"",
                        with: "\"expiryTime\":\"\(Instant(seconds: sub.start.wholeSeconds + 60).iso8601)\"")
                    if Bool.random(using: &random) {
                        responses += [older, response]
                    } else {
                        responses += [response, older]
                    }
                } else {
                    responses.append(response)
                }
                if sub.graceEnds != nil { notify(sub.token, PlaySubscriptionRules.inGracePeriod, sub.paidUntil) }
                if !sub.prepaid, Bool.random(using: &random) { notify(sub.token, 2, sub.start) }
                if let revoked = sub.revoked {
                    if sub.standing == .revokedByNotice {
                        notify(sub.token, PlaySubscriptionRules.revoked, revoked)
                    } else {
                        voids.append(
                            #"{"kind":"androidpublisher#voidedPurchase","purchaseToken":"\#(sub.token)","orderId":"GPA.\#(sub.token)..2","voidedTimeMillis":"\#(revoked.wholeSeconds * 1000)","voidedSource":1,"voidedReason":0}"#
                        )
                    }
                } else if Int.random(in: 0..<4, using: &random) == 0 {
                    // A refund of an earlier renewal's order: the current period stands.
                    voids.append(
                        #"{"purchaseToken":"\#(sub.token)","orderId":"GPA.\#(sub.token)..0","voidedTimeMillis":"\#(sub.start.wholeSeconds * 1000 + 1000)"}"#
                    )
                }
            }
        }
        return [
            customers(drawn),
            FixtureFile("subscriptionsv2.jsonl", lines(responses)),
            FixtureFile("rtdn.jsonl", lines(notifications)),
            FixtureFile("voided.json", #"{"voidedPurchases":["# + voids.joined(separator: ",\n") + "]}\n"),
        ]
    }

    static func lines(_ rows: [String]) -> String { rows.map { $0 + "\n" }.joined() }

    @Test(arguments: ["date", "either"])
    func playRecordsGiveWhatTheCanonicalTransactionsGive(basis: String) throws {
        var random = Xoshiro(seed: (37, 3, 0, basis == "date" ? 1 : 2))
        let drawn = Self.draw(300, using: &random)
        let policy = PolicySpec(basis: basis)
        let canonical = try AuditFixture.run(Self.canonical(drawn), policy: policy)
        let twin = try AuditFixture.run(Self.play(drawn, using: &random), policy: policy)
        #expect(twin.rejections("subscriptionsv2.jsonl").isEmpty)
        #expect(twin.rejections("rtdn.jsonl").isEmpty)
        #expect(twin.rejections("voided.json").isEmpty)
        #expect((twin.input("rtdn.jsonl")?.exactDuplicates ?? 0) > 0)
        #expect((twin.input("subscriptionsv2.jsonl")?.superseded ?? 0) > 0)
        let twinResults = Dictionary(twin.audit.customers.map { ($0.customer.id, $0) }) { first, _ in first }
        #expect(Set(twinResults.keys) == Set(canonical.audit.customers.map(\.customer.id)))
        var flags: Set<String> = []
        var classes: Set<CustomerClass> = []
        for result in canonical.audit.customers {
            let id = result.customer.id
            guard let twinned = twinResults[id] else { continue }
            let expected = TwinVerdict(result)
            let got = TwinVerdict(twinned)
            #expect(got == expected, "\(id): \(drawn.first { $0.id == id }.map { "\($0.subscriptions)" } ?? "")")
            flags.formUnion(got.flags)
            classes.insert(got.customerClass)
        }
        #expect(classes == [.grandfathered, .subscriber, .lapsed, .new])
        let drawnFlags: Set<String> = [
            "in_grace_period", "billing_retry", "refunded", "grandfathered_and_subscribed",
            "bought_just_before_cutover",
        ]
        #expect(drawnFlags.isSubset(of: flags), "not exercised: \(drawnFlags.subtracting(flags))")
    }
}
