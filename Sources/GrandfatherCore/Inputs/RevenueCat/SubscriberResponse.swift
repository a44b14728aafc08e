import GrandfatherEngine

extension InputFormat {
    /// RevenueCat REST API v1 subscriber responses (`GET /subscribers/{id}` bodies), JSON.
    public static let revenueCatSubscribers = InputFormat(rawValue: "revenuecat-subscribers")
}

/// A RevenueCat REST API v1 `GET /subscribers/{id}` body (FORMATS.md §b): the one place
/// RevenueCat keeps `original_application_version` and `original_purchase_date` (from the
/// App Store receipt: an iOS build number, a macOS marketing version). A file holds one body,
/// a JSON array of them, or JSON Lines; each body is a row that gives a customer from the
/// `revenuecat_subscriber` source (SPEC §9), which outranks the canonical customers file.
enum SubscriberResponse {
    /// Whether a top-level object with `keys` is a subscriber response.
    static func recognizes(keys: [String]) -> Bool {
        keys.contains("subscriber")
    }

    /// Why a body cannot be read: a one-line reason, and the line of the value at fault.
    struct Problem: Error, Equatable {
        var line: Int
        var reason: String
    }

    /// What one body gives: the customer, and the entitlements RevenueCat has active at
    /// as-of (its own view, for the reconciliation of issue 16).
    struct Read {
        var customer: Customer
        var active: Set<String>
        /// When RevenueCat answered (`request_date`), which weighs the body against the run's
        /// other bodies of its customer (`SubscriberResponseRules`).
        var requested: Instant?
        /// The body's purchases, each read as an export row or refused on its own.
        var purchases: [Result<SubscriberPurchases.Entry, SubscriberPurchases.Problem>]
    }

    /// The customer a body describes, and what RevenueCat has active for it.
    ///
    /// Its facts: `original_application_version` (a string, or a number read as its literal
    /// text), `original_purchase_date` (a time) and a platform: the platform of the stores
    /// of its purchases (the first in `Platform` order, as for an export's rows), else, for a
    /// body with an original application version (which only the App Store gives),
    /// `appStore`. `first_seen` is checked and not used: it is when RevenueCat first saw the
    /// customer, not the app purchase (FORMATS.md §c, pitfall 13).
    ///
    /// An entitlement is active at `asOf` when its `expires_date` is null (a lifetime one) or
    /// after as-of, or its `grace_period_expires_date` is after as-of (SPEC §8.11's "strictly
    /// after"). An entitlement whose dates are not times rejects the body.
    /// - Parameters:
    ///   - appStore: the Apple platform the policy names (`apple.default_platform`).
    ///   - purchases: whether to read the body's purchases too; without them, `read` says
    ///     only whether the body reads and what its customer is, as weighing it needs.
    static func read(
        _ body: JSONValue.Located, appStore: Platform, asOf: Instant, purchases: Bool = true
    ) -> Result<Read, Problem> {
        guard body.isObject else {
            return .failure(Problem(line: body.line, reason: "\(body.typeName) is not a subscriber response"))
        }
        guard let subscriber = body["subscriber"], subscriber.isObject else {
            let found = body["subscriber"]?.typeName ?? "nothing"
            return .failure(Problem(line: body.line, reason: "subscriber is \(found), not an object"))
        }
        do throws(Problem) {
            guard let id = try text(subscriber, "original_app_user_id") else {
                throw Problem(line: subscriber.line, reason: "subscriber.original_app_user_id is missing")
            }
            let version = try text(subscriber, "original_application_version")
            let purchased = try time(subscriber, "original_purchase_date")
            _ = try time(subscriber, "first_seen")
            let stores = storePlatform(subscriber, appStore: appStore)
            let platform = stores ?? (version != nil ? appStore : nil)
            var facts: [CustomerFact] = [.platform, .originalAppVersion, .originalPurchaseDate]
            if platform == nil { facts.removeFirst() }
            var customer = Customer(
                id: id, platform: platform, originalAppVersion: version, originalPurchaseDate: purchased
            ).read(from: .subscriberResponse, facts: facts)
            // Taken from where the customer bought, not said of their device; without a
            // purchase, only guessed from the version, which any store outranks.
            customer.provenance.platformIsAStore = true
            customer.provenance.platformIsAGuess = stores == nil
            let active = try activeEntitlements(subscriber, asOf: asOf)
            let requested = try time(body, "request_date", path: "response")
            return .success(
                Read(
                    customer: customer, active: active, requested: requested,
                    purchases: purchases
                        ? SubscriberPurchases.entries(subscriber, customer: id, requested: requested) : []
                ))
        } catch {
            return .failure(error)
        }
    }

    /// The `original_app_user_id` a body names, as `read` reads it, without reading the rest:
    /// `nil` when it names none (then `read` rejects it).
    static func customerID(of body: JSONValue.Located) -> String? {
        guard let subscriber = body["subscriber"], subscriber.isObject else { return nil }
        return (try? text(subscriber, "original_app_user_id")) ?? nil
    }

    /// The entitlements active at `asOf` (see `read`).
    private static func activeEntitlements(
        _ subscriber: JSONValue.Located, asOf: Instant
    ) throws(Problem) -> Set<String> {
        guard let entitlements = subscriber["entitlements"], !(entitlements.value == .null) else { return [] }
        guard let members = entitlements.value.members else {
            throw Problem(
                line: entitlements.line, reason: "subscriber.entitlements is \(entitlements.typeName), not an object")
        }
        var active: Set<String> = []
        for member in members {
            let entitlement = JSONValue.Located(member.value, line: member.valueLine)
            let path = "subscriber.entitlements.\(Excerpt.of(member.key))"
            guard entitlement.isObject else {
                throw Problem(line: entitlement.line, reason: "\(path) is \(entitlement.typeName), not an object")
            }
            let expires = try time(entitlement, "expires_date", path: path)
            let grace = try time(entitlement, "grace_period_expires_date", path: path)
            if expires.map({ $0 > asOf }) ?? true || grace.map({ $0 > asOf }) ?? false { active.insert(member.key) }
        }
        return active
    }

    /// A string member (or a number, as its literal text); `nil` when absent, null or empty.
    private static func text(
        _ object: JSONValue.Located, _ key: String, path: String = "subscriber"
    ) throws(Problem) -> String? {
        guard let value = object[key] else { return nil }
        switch value.value {
        case .null: return nil
        case .string, .number: return value.text
        default: throw Problem(line: value.line, reason: "\(path).\(key) is \(value.typeName), not a string")
        }
    }

    /// A time member; `nil` when absent or null.
    private static func time(
        _ object: JSONValue.Located, _ key: String, path: String = "subscriber"
    ) throws(Problem) -> Instant? {
        guard let text = try text(object, key, path: path) else { return nil }
        guard let instant = RevenueCatValue.time(Array(text.utf8).span) else {
            throw Problem(
                line: object[key]?.line ?? object.line,
                reason: "\(path).\(key) is not a time: '\(Excerpt.of(text))'")
        }
        return instant
    }

    /// The platform of the stores the subscriber's purchases were made in: the first in
    /// `Platform` order, whatever the order of the body's keys.
    private static func storePlatform(_ subscriber: JSONValue.Located, appStore: Platform) -> Platform? {
        var stores: [String] = []
        for member in subscriber["subscriptions"]?.value.members ?? [] {
            if case .string(let store)? = member.value.members?.first(where: { $0.key == "store" })?.value {
                stores.append(store)
            }
        }
        for member in subscriber["non_subscriptions"]?.value.members ?? [] {
            for item in member.value.elements ?? [] {
                if case .string(let store)? = item.value.members?.first(where: { $0.key == "store" })?.value {
                    stores.append(store)
                }
            }
        }
        let platforms = stores.compactMap { store in
            ExportStore.read(Array(store.utf8).span).platform(appStore: appStore)
        }
        return platforms.min { $0.index < $1.index }
    }
}
