import GrandfatherEngine

extension InputFormat {
    /// Google Play real-time developer notifications a team logged: Pub/Sub push envelopes,
    /// their `message`, or the decoded `DeveloperNotification` (JSON Lines or a JSON array).
    public static let playNotifications = InputFormat(rawValue: "play-notifications")
    /// Google Play Developer API `purchases.voidedpurchases.list` responses, or their
    /// `voidedPurchases` entries one by one.
    public static let playVoided = InputFormat(rawValue: "play-voided")
}

/// What a Google Play notification or voided purchase says of a purchase token
/// (`PlaySubscriptionRules.Notice`), read from the shapes teams store.
///
/// - **A notification** arrives as a Pub/Sub push envelope (`{"message": {"data": …,
///   "messageId": …}, "subscription": …}`), a pull response's `receivedMessages`, the
///   `message` alone, or the decoded
///   `DeveloperNotification`. `data` is the notification, base64. `eventTimeMillis` is its
///   instant (Google sends it as a string of digits; a number reads too). Of its one payload,
///   `subscriptionNotification` (`notificationType`, `purchaseToken`) and
///   `voidedPurchaseNotification` (`purchaseToken`, `orderId`, `productType`) are read; a
///   `oneTimeProductNotification` or a void of a one-time product (`productType` 2) is noted
///   (no subscription, and it names no customer), a `testNotification` too.
/// - **A voided purchase** (`purchaseToken`, `orderId`, `voidedTimeMillis`) is a void.
enum PlayNotice {
    /// Why a value cannot be read: the responses' one reason type, so that both read texts
    /// alike (`PlaySubscriptionResponse.member`).
    typealias Problem = PlaySubscriptionResponse.Problem

    /// What one stored value gives.
    enum Read: Equatable {
        /// A notice about a token, with the Pub/Sub `messageId` that tells a redelivery.
        case notice(PlaySubscriptionRules.Notice, messageID: String?)
        /// Read, and nothing for a subscription (a test, a one-time product).
        case noted
    }

    /// Whether a top-level value is a notification in one of its stored shapes.
    static func recognizesNotification(_ value: JSONValue.Located) -> Bool {
        if value.keys.contains("receivedMessages") { return true }
        if let message = value["message"], message["data"] != nil { return true }
        let keys = value.keys
        if keys.contains("data"), keys.contains("messageId") || keys.contains("message_id") { return true }
        return keys.contains("packageName") && keys.contains("eventTimeMillis")
    }

    /// The notifications of a top-level value: a Pub/Sub pull response's `receivedMessages`
    /// (each `{"ackId": …, "message": …}`), else the value itself.
    static func notificationEntries(_ value: JSONValue.Located) -> Result<[JSONValue.Located], Problem> {
        entries(of: value, under: "receivedMessages")
    }

    /// Whether a top-level value is a voided purchases list response or one of its entries.
    static func recognizesVoided(_ value: JSONValue.Located) -> Bool {
        value.keys.contains("voidedPurchases") || value.keys.contains("voidedTimeMillis")
    }

    /// The entries of a voided purchases value: a list response's `voidedPurchases`, else the
    /// value itself.
    static func voidedEntries(_ value: JSONValue.Located) -> Result<[JSONValue.Located], Problem> {
        entries(of: value, under: "voidedPurchases")
    }

    /// The elements of a list response's `key` (none when null), else the value itself.
    private static func entries(of value: JSONValue.Located, under key: String) -> Result<
        [JSONValue.Located], Problem
    > {
        guard let list = value[key] else { return .success([value]) }
        if list.value == .null { return .success([]) }
        guard let entries = list.elements else { return .failure(Problem("\(key) is \(list.typeName), not an array")) }
        return .success(Array(entries))
    }

    /// Reads a voided purchase.
    static func voided(_ entry: JSONValue.Located) -> Result<Read, Problem> {
        guard entry.isObject else { return .failure(Problem("a voided purchase must be a JSON object")) }
        do throws(Problem) {
            let token = try required(entry, "purchaseToken")
            let at = try millis(entry, "voidedTimeMillis")
            let order = try optional(entry, "orderId")
            return .success(.notice(.init(token: token, at: at, event: .voided(orderID: order)), messageID: nil))
        } catch {
            return .failure(error)
        }
    }

    /// Reads a notification in any of its stored shapes. `sales.paid_app` names the app when
    /// the policy does: a notification about another package is refused.
    static func notification(_ body: JSONValue.Located, sales: SalesPolicy) -> Result<Read, Problem> {
        guard body.isObject else { return .failure(Problem("a notification must be a JSON object")) }
        do throws(Problem) {
            let message = body["message"] ?? body
            var messageID: String?
            let decoded: JSONValue.Located
            if let data = message["data"] {
                messageID = try optional(message, "messageId")
                if messageID == nil { messageID = try optional(message, "message_id") }
                guard let encoded = data.string else { throw Problem("message.data is \(data.typeName), not a string") }
                guard let bytes = Base64.decode(encoded.utf8, alphabet: .standard) else {
                    throw Problem("message.data is not base64")
                }
                let value: JSONValue
                switch JSONParser.parseDocument(bytes, trailing: "after the notification") {
                case .success(let parsed): value = parsed
                case .failure(let error):
                    throw Problem(
                        error.namedEncodingProblem.map { "message.data: \($0)" }
                            ?? "message.data is not JSON: \(error.message)")
                }
                if let repeated = value.firstRepeatedKey {
                    throw Problem("message.data repeats the key \(Excerpt.of(repeated.key))")
                }
                decoded = JSONValue.Located(value, pinnedAt: data.line)
                guard decoded.isObject else { throw Problem("message.data is \(decoded.typeName), not an object") }
            } else {
                decoded = body
            }
            if let package = try optional(decoded, "packageName"), sales.rulesOut([package]) {
                throw Problem("packageName '\(Excerpt.of(package))' is not an app sales.paid_app names")
            }
            let at = try millis(decoded, "eventTimeMillis")
            if let notification = decoded["subscriptionNotification"] {
                let token = try required(notification, "purchaseToken", in: "subscriptionNotification")
                guard let type = notification["notificationType"]?.text.flatMap({ Int($0) }) else {
                    throw Problem("subscriptionNotification.notificationType is missing or not a whole number")
                }
                return .success(.notice(.init(token: token, at: at, event: .subscription(type)), messageID: messageID))
            }
            if let void = decoded["voidedPurchaseNotification"] {
                let token = try required(void, "purchaseToken", in: "voidedPurchaseNotification")
                // A one-time product's void: no subscription to revoke.
                if void["productType"]?.text == "2" { return .success(.noted) }
                let order = try optional(void, "orderId")
                return .success(
                    .notice(.init(token: token, at: at, event: .voided(orderID: order)), messageID: messageID))
            }
            if decoded["oneTimeProductNotification"] != nil || decoded["testNotification"] != nil {
                return .success(.noted)
            }
            throw Problem(
                "the notification holds no subscriptionNotification, voidedPurchaseNotification, oneTimeProductNotification or testNotification"
            )
        } catch {
            return .failure(error)
        }
    }

    private static func required(_ object: JSONValue.Located, _ key: String, in parent: String? = nil) throws(Problem)
        -> String
    {
        let name = parent.map { "\($0).\(key)" } ?? key
        guard let text = try optional(object, key, named: name) else { throw Problem("\(name) is missing") }
        return text
    }

    private static func optional(_ object: JSONValue.Located, _ key: String, named: String? = nil) throws(Problem)
        -> String?
    {
        try PlaySubscriptionResponse.member(object, key, named ?? key)
    }

    /// Milliseconds since 1970, as Google writes them: a string of digits (a number reads too).
    private static func millis(_ object: JSONValue.Located, _ key: String) throws(Problem) -> Instant {
        guard let given = object[key]?.text else { throw Problem("\(key) is missing") }
        guard let instant = LicensingVerdict.instant(millis: given) else {
            throw Problem("\(key) '\(Excerpt.of(given))' is not milliseconds since 1970")
        }
        return instant
    }
}
