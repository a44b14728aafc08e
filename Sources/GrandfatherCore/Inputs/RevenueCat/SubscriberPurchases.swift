import GrandfatherEngine

/// The purchases of a subscriber response (FORMATS.md §b): each member of `subscriptions`
/// and each item of `non_subscriptions` is a transaction in its latest state, read as the
/// export row it would be, so that one set of rules (`ExportTransaction`) maps both onto
/// SPEC §2 and a response and an export row of one store transaction are two deliveries of
/// it (SPEC §9, Redeliveries): the response's `request_date` is its `updated_at`.
///
/// The response's fields, as export columns: `purchase_date` → `start_time`,
/// `expires_date` → `end_time`, `refunded_at`, `grace_period_expires_date` →
/// `grace_period_end_time`, `billing_issues_detected_at`, `store`, `is_sandbox`,
/// `ownership_type`, `store_transaction_id`, `price.amount` and `price.currency` →
/// `purchase_price_in_purchased_currency` and `purchased_currency`. A subscription is
/// auto-renewable unless its store is `promotional`; every purchase has the entitlements whose
/// `product_identifier` is its product, as an export row's `entitlement_identifiers` (so an
/// item is non-consumable when it has one, else consumable, as for an export row), and the
/// policy's product type outranks both.
///
/// A purchase without a `store_transaction_id` (older responses, the SDK's fixtures) gets one
/// that stays the same across responses, so that a later response replaces it:
/// `rc:<app_user_id>:<product_id>` for a subscription (a response holds one per product),
/// `rc:<id>` for an item (RevenueCat's purchase id), else
/// `rc:<app_user_id>:<product_id>:<purchase_date>` for an item without one.
enum SubscriberPurchases {
    /// One purchase read from a response: its values as export columns, the line it is
    /// reported at, and the path that names it in reasons (`subscriber.subscriptions.pro`).
    struct Entry {
        var values: JSONExportValues
        var line: Int
        var path: String
        /// A member of `subscriptions` or an item of `non_subscriptions`.
        var shape: TransactionShape
        var product: String
        /// What the response's shape implies of the product's type (`nil`: nothing): a
        /// subscription renews (unless its store is `promotional`); an item an entitlement
        /// names is time-limited when RevenueCat shows that entitlement with an
        /// `expires_date`, else a non-consumable; a promotional grant an entitlement names is
        /// a non-consumable (its own expiry ends it, SPEC §9).
        var statedType: ProductType?
        /// For an item an entitlement names with an `expires_date`: the latest such end,
        /// which ends the latest purchase of the product as its term (SPEC §9, Product facts).
        var entitlementEnds: Instant?
    }

    /// A purchase that cannot be read: its line and why.
    struct Problem: Error, Equatable {
        var line: Int
        var reason: String
    }

    /// The purchases of `subscriber` (a response's `subscriber` object), in the body's order:
    /// subscriptions first, then items; each read or refused on its own.
    /// - Parameters:
    ///   - customer: the subscriber's `original_app_user_id`.
    ///   - requested: the response's `request_date`, the purchases' `updated_at`.
    static func entries(
        _ subscriber: JSONValue.Located, customer: String, requested: Instant?
    ) -> [Result<Entry, Problem>] {
        var entries: [Result<Entry, Problem>] = []
        let entitlements = productEntitlements(subscriber)
        if let subscriptions = subscriber["subscriptions"], subscriptions.value != .null {
            guard let members = subscriptions.value.members else {
                return [
                    .failure(
                        Problem(line: subscriptions.line, reason: notAn("subscriber.subscriptions", subscriptions)))
                ]
            }
            for member in members {
                let purchase = JSONValue.Located(member.value, line: member.valueLine)
                let path = "subscriber.subscriptions.\(Excerpt.of(member.key))"
                entries.append(
                    entry(
                        purchase, path: path, customer: customer, product: member.key, requested: requested,
                        fallbackID: "rc:\(customer):\(member.key)", isSubscription: true,
                        entitlements: entitlements[member.key] ?? Granted()))
            }
        }
        if let items = subscriber["non_subscriptions"], items.value != .null {
            guard let members = items.value.members else {
                return entries + [
                    .failure(Problem(line: items.line, reason: notAn("subscriber.non_subscriptions", items)))
                ]
            }
            for member in members {
                let path = "subscriber.non_subscriptions.\(Excerpt.of(member.key))"
                guard let list = JSONValue.Located(member.value, line: member.valueLine).elements else {
                    entries.append(
                        .failure(
                            Problem(
                                line: member.valueLine,
                                reason: "\(path) is \(JSONValue.Located(member.value, line: 0).typeName), not an array")
                        ))
                    continue
                }
                for (index, item) in list.enumerated() {
                    // RevenueCat's purchase id; a cached body may lack it, and then the
                    // purchase time, which a one-time purchase keeps, stands in.
                    let fallbackID =
                        item["id"]?.text.map { "rc:\($0)" }
                        ?? item["purchase_date"]?.text.map { "rc:\(customer):\(member.key):\($0)" }
                    entries.append(
                        entry(
                            item, path: "\(path)[\(index)]", customer: customer, product: member.key,
                            requested: requested, fallbackID: fallbackID, isSubscription: false,
                            entitlements: entitlements[member.key] ?? Granted()))
                }
            }
        }
        return entries
    }

    /// The entitlements the response's `entitlements` map grants through one product, and
    /// whether any of them shows an `expires_date`, with the latest such end that reads.
    private struct Granted {
        var names: [String] = []
        var expires = false
        var ends: Instant?
    }

    /// The entitlements the response's `entitlements` map grants through each product.
    private static func productEntitlements(_ subscriber: JSONValue.Located) -> [String: Granted] {
        var granted: [String: Granted] = [:]
        for member in subscriber["entitlements"]?.value.members ?? [] {
            let fields = member.value.members ?? []
            if case .string(let product)? = fields.first(where: { $0.key == "product_identifier" })?.value {
                granted[product, default: Granted()].names.append(member.key)
                if case .string(let text)? = fields.first(where: { $0.key == "expires_date" })?.value {
                    granted[product]?.expires = true
                    let bytes = Array(text.utf8)
                    if let end = RevenueCatValue.time(bytes.span), granted[product]?.ends.map({ end > $0 }) ?? true {
                        granted[product]?.ends = end
                    }
                }
            }
        }
        return granted
    }

    private static func entry(
        _ purchase: JSONValue.Located, path: String, customer: String, product: String, requested: Instant?,
        fallbackID: String?, isSubscription: Bool, entitlements: Granted
    ) -> Result<Entry, Problem> {
        guard purchase.isObject else {
            return .failure(Problem(line: purchase.line, reason: notAn(path, purchase)))
        }
        var values = JSONExportValues()
        values.set(.appUserID, customer)
        values.set(.productID, product)
        let fields: [(key: String, column: ExportColumn)] = [
            ("purchase_date", .startTime), ("expires_date", .endTime), ("refunded_at", .refundedAt),
            ("grace_period_expires_date", .gracePeriodEndTime),
            ("billing_issues_detected_at", .billingIssuesDetectedAt), ("store", .store), ("is_sandbox", .isSandbox),
            ("ownership_type", .ownershipType), ("store_transaction_id", .storeTransactionID),
        ]
        do throws(Problem) {
            for (key, column) in fields {
                if let text = try scalar(purchase, key, path: path) { values.set(column, text) }
            }
            if let price = purchase["price"], price.value != .null {
                let pricePath = path + ".price"
                guard price.isObject else { throw Problem(line: price.line, reason: notAn(pricePath, price)) }
                if let amount = try scalar(price, "amount", path: pricePath) {
                    values.set(.purchasePriceInPurchasedCurrency, amount)
                }
                if let currency = try scalar(price, "currency", path: pricePath) {
                    values.set(.purchasedCurrency, currency)
                }
            }
        } catch {
            return .failure(error)
        }
        if !values.has(.storeTransactionID), let fallbackID { values.set(.storeTransactionID, fallbackID) }
        let promotional = values.read(.store) { ExportStore.read($0) == .promotional } ?? false
        values.set(.isAutoRenewable, isSubscription && !promotional ? "true" : "false")
        if !entitlements.names.isEmpty {
            values.set(.entitlementIdentifiers, "[" + entitlements.names.joined(separator: ",") + "]")
        }
        if let requested { values.set(.updatedAt, requested.iso8601) }
        var stated: ProductType?
        if isSubscription && !promotional {
            stated = .autoRenewable
        } else if !entitlements.names.isEmpty {
            stated = entitlements.expires && !isSubscription ? .nonRenewing : .nonConsumable
        }
        return .success(
            Entry(
                values: values, line: purchase.line, path: path,
                shape: isSubscription ? .subscriberSubscription : .subscriberItem, product: product,
                statedType: stated, entitlementEnds: isSubscription ? nil : entitlements.ends))
    }

    /// A scalar member as text (a string, a number's literal, a boolean as `true`/`false`);
    /// `nil` when absent, null or empty; an object or an array refuses the purchase.
    private static func scalar(_ object: JSONValue.Located, _ key: String, path: String) throws(Problem) -> String? {
        guard let value = object[key] else { return nil }
        switch value.value {
        case .object, .array:
            throw Problem(line: value.line, reason: "\(path).\(key) is \(value.typeName), not a string")
        default:
            return value.text
        }
    }

    private static func notAn(_ path: String, _ value: JSONValue.Located) -> String {
        "\(path) is \(value.typeName), not an object"
    }

    /// The reason an export-rule problem gives for a purchase, named by its response field.
    static func reason(_ problem: ExportRowProblem, path: String) -> String {
        let field: String
        switch problem.column {
        case .startTime: field = "purchase_date"
        case .endTime: field = "expires_date"
        case .gracePeriodEndTime: field = "grace_period_expires_date"
        case .purchasePriceInPurchasedCurrency: field = "price.amount"
        case .purchasedCurrency: field = "price.currency"
        case .appUserID: field = "original_app_user_id"
        case .productID: field = "product_identifier"
        default: field = problem.column.name
        }
        return "\(path).\(field) \(problem.reason)"
    }
}

/// Export columns given as text: a subscriber response's purchase read as an export row.
struct JSONExportValues: ExportValues {
    private var values: [ExportColumn: [UInt8]] = [:]

    mutating func set(_ column: ExportColumn, _ text: String) {
        values[column] = Array(text.utf8)
    }

    func read<Result>(_ column: ExportColumn, _ body: (Span<UInt8>) -> Result) -> Result? {
        guard let bytes = values[column], !bytes.isEmpty else { return nil }
        return body(bytes.span)
    }
}
