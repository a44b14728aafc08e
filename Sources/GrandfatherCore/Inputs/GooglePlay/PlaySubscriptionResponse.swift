import GrandfatherEngine

extension InputFormat {
    /// Google Play Developer API `purchases.subscriptionsv2` responses a team stored, each with
    /// its purchase token (JSON Lines, a JSON array, or one object keyed by token).
    public static let playSubscriptions = InputFormat(rawValue: "play-subscriptions")
}

/// A stored `SubscriptionPurchaseV2` response (`PlaySubscriptionRules.Snapshot`). The API's
/// response does not hold the token it was fetched for, so a stored one carries it, in one of
/// three ways:
/// - beside the response's fields (`purchaseToken`, `purchase_token` or `token`);
/// - as the key of an object of responses (`{"<token>": {…}, …}`);
/// - in a record that holds the response as one of its members (`{"purchaseToken": …,
///   "subscription": {…}}`, whatever the member's name).
///
/// The first of these it finds, in that order, names it: a key names a response only when the
/// response names no token of its own, so `{"subscription": {…}}` a line is one token a line.
///
/// `customer_id` beside it (or in the record around it) names the customer where the team
/// keeps its own id; else `externalAccountIdentifiers.obfuscatedExternalAccountId`, else its
/// `externalAccountId`, does.
enum PlaySubscriptionResponse {
    /// Keys only a `subscriptionsv2` response has.
    static let shapeKeys = ["lineItems", "subscriptionState"]
    static let kind = "androidpublisher#subscriptionPurchaseV2"
    static let tokenKeys = ["purchaseToken", "purchase_token", "token"]

    /// Whether a top-level value is a response, or holds responses as its members.
    static func recognizes(_ value: JSONValue.Located) -> Bool {
        isResponse(value)
            || (value.value.members ?? []).contains { isResponse(JSONValue.Located($0.value, line: 0)) }
    }

    private static func isResponse(_ value: JSONValue.Located) -> Bool {
        // Over the members in place: a list of keys made per record cost a fifth of reading one.
        guard let members = value.value.members else { return false }
        return members.contains { member in
            if shapeKeys.contains(member.key) { return true }
            guard member.key == "kind", case .string(let text) = member.value else { return false }
            return text == kind
        }
    }

    /// One response a top-level value holds: the token it is keyed by, if any, the record
    /// around it, if any, and the response, at the line it is reported at.
    struct Entry {
        var token: String?
        var record: JSONValue.Located?
        var body: JSONValue.Located
    }

    /// The responses a top-level value holds: the value itself; the response inside a record
    /// that names its token; or each member of an object keyed by token.
    static func entries(_ value: JSONValue.Located) -> [Entry] {
        var entries: [Entry] = []
        forEachEntry(value) { entries.append($0) }
        return entries
    }

    /// `entries(_:)` handed to `body` one at a time: no list made for each of a file's records.
    static func forEachEntry(_ value: JSONValue.Located, _ body: (Entry) -> Void) {
        guard !isResponse(value), let members = value.value.members, !members.isEmpty else {
            return body(Entry(body: value))
        }
        if members.contains(where: { tokenKeys.contains($0.key) }),
            let inner = members.first(where: { isResponse(JSONValue.Located($0.value, line: 0)) })
        {
            return body(Entry(record: value, body: JSONValue.Located(inner.value, line: value.line)))
        }
        for member in members {
            body(Entry(token: member.key, body: JSONValue.Located(member.value, line: member.valueLine)))
        }
    }

    struct Problem: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Reads one response. `sales.paid_app` names the app when the policy does: a response
    /// stored with the `packageName` of another app is refused, as a notification is.
    static func read(_ entry: Entry, sales: SalesPolicy = SalesPolicy()) -> Result<
        PlaySubscriptionRules.Snapshot, Problem
    > {
        let body = entry.body
        guard body.isObject else { return .failure(Problem("a subscriptionsv2 response must be a JSON object")) }
        do throws(Problem) {
            for place in Self.places(of: entry) {
                if let package = try member(place, "packageName", "packageName"), sales.rulesOut([package]) {
                    throw Problem("packageName '\(Excerpt.of(package))' is not an app sales.paid_app names")
                }
            }
            // The response's own token outranks the record's around it, and both outrank the key
            // it is filed under: responses stored as `{"subscription": {…}}` are not one token.
            var token: String?
            for place in Self.places(of: entry) {
                for key in tokenKeys where token == nil { token = try member(place, key, "purchaseToken") }
            }
            token = token ?? entry.token
            guard let token else {
                throw Problem("purchaseToken is missing: a stored response must name the token it was fetched for")
            }
            var customer = try entry.record.flatMap { record throws(Problem) in
                try member(record, "customer_id", "customer_id")
            }
            if customer == nil { customer = try member(body, "customer_id", "customer_id") }
            // The id the app set at purchase (`setObfuscatedAccountId`), else the account linked
            // in the purchase flow; never the profile id, which is a profile within an account.
            if let identifiers = body["externalAccountIdentifiers"] {
                for key in Self.accountKeys where customer == nil {
                    customer = try member(identifiers, key, key)
                }
            }
            let linked = try member(body, "linkedPurchaseToken", "linkedPurchaseToken")
            // A state Google adds later is read as unspecified: the expiry still decides.
            let state =
                try member(body, "subscriptionState", "subscriptionState", as: .value)
                .flatMap(PlaySubscriptionRules.State.init(rawValue:)) ?? .unspecified
            let start = try time(body, "startTime", "startTime")
            guard let given = body["lineItems"] else { throw Problem("lineItems is missing") }
            guard let items = given.elements else { throw Problem("lineItems is \(given.typeName), not an array") }
            var read: [PlaySubscriptionRules.LineItem] = []
            for item in items { read.append(try lineItem(item)) }
            let order = try member(body, "latestOrderId", "latestOrderId")
            let test = body["testPurchase"].map { $0.value != .null } ?? false
            return .success(
                .init(
                    token: token, customerID: customer, linkedToken: linked, state: state, start: start, items: read,
                    isTest: test, latestOrderID: order))
        } catch {
            return .failure(error)
        }
    }

    /// Where a response's own members are looked for: the response, then the record around it
    /// (a sequence of its own, not an array made per response).
    private struct Places: Sequence, IteratorProtocol {
        var first: JSONValue.Located?
        var second: JSONValue.Located?

        mutating func next() -> JSONValue.Located? {
            defer { (first, second) = (second, nil) }
            return first
        }
    }

    private static func places(of entry: Entry) -> Places { Places(first: entry.body, second: entry.record) }

    /// Who bought, where no `customer_id` says: the id the app set, else the linked account.
    static let accountKeys = ["obfuscatedExternalAccountId", "externalAccountId"]

    private static func lineItem(_ item: JSONValue.Located) throws(Problem) -> PlaySubscriptionRules.LineItem {
        guard item.isObject else { throw Problem("lineItems holds \(item.typeName), not an object") }
        guard let product = try member(item, "productId", "lineItems[].productId") else {
            throw Problem("lineItems[].productId is missing")
        }
        let expiry = try time(item, "expiryTime", "lineItems[].expiryTime")
        let order = try member(item, "latestSuccessfulOrderId", "lineItems[].latestSuccessfulOrderId")
        let plan = item["autoRenewingPlan"]
        var price: (String, String)?
        if let recurring = plan?["recurringPrice"], recurring.isObject {
            price = try money(recurring)
        }
        let prepaid = item["prepaidPlan"].map { $0.value != .null } ?? false
        return .init(
            productID: product, expiry: expiry, renews: !prepaid || plan != nil, price: price?.0,
            currency: price?.1, latestOrderID: order)
    }

    /// A `Money` (`currencyCode`, `units`, `nanos`) as a canonical decimal and its currency;
    /// `nil` when it names no currency.
    private static func money(_ value: JSONValue.Located) throws(Problem) -> (String, String)? {
        guard let currency = try member(value, "currencyCode", "recurringPrice.currencyCode", as: .value) else {
            return nil
        }
        let unitsText = value["units"]?.text ?? "0"
        let nanosText = value["nanos"]?.text ?? "0"
        guard let units = Int64(unitsText), units >= 0, let nanos = Int(nanosText), (0..<1_000_000_000).contains(nanos)
        else {
            throw Problem(
                "recurringPrice '\(Excerpt.of(unitsText))' units and '\(Excerpt.of(nanosText))' nanos are not a price")
        }
        var fraction = String(nanos)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return (fraction.isEmpty ? "\(units)" : "\(units).\(fraction)", currency)
    }

    /// A string member's text, checked as a row's is (the one rule, `TextBytes`, as an id
    /// unless `kind` says otherwise); `nil` when absent, null or empty.
    static func member(
        _ object: JSONValue.Located, _ key: String, _ name: String, as kind: TextBytes.Kind = .identifier
    ) throws(Problem) -> String? {
        guard let value = object[key] else { return nil }
        let text: String
        switch value.value {
        case .null: return nil
        case .string(let given):
            guard !given.isEmpty else { return nil }
            text = given
        default: throw Problem("\(name) is \(value.typeName), not a string")
        }
        if let problem = TextBytes.reason(text, named: name, as: kind) { throw Problem(problem) }
        return text
    }

    /// An RFC 3339 instant (`2024-03-01T10:00:00.123456789Z`).
    private static func time(_ object: JSONValue.Located, _ key: String, _ name: String) throws(Problem) -> Instant? {
        guard let given = try member(object, key, name, as: .value) else { return nil }
        switch TimestampParser(defaultZone: nil).parse(given) {
        case .success(let instant): return instant
        case .failure(let error): throw Problem("\(name): \(error.reason(for: Excerpt.of(given)))")
        }
    }
}
