import Foundation
import GrandfatherTestSupport

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Canonical data and its RevenueCat twin (issue 16, acceptance 2): the valid rows of a
/// generated dataset (`GeneratedDataset`), written once as canonical CSV files and once as
/// RevenueCat would hold them: a Scheduled Data Export (v5 columns in a shuffled order, mixed
/// spellings, gzip), subscriber responses (JSON Lines) and a customer list.
struct TwinData: Sendable {
    /// A customers row, as normalisation keeps it.
    struct Customer: Sendable {
        var id: String
        var platform: String
        var version: String?
        var purchased: Int64?
        var isSandbox: Bool
        var preordered: Int64?
        var storefront: String?
    }

    /// A transactions row, as normalisation keeps it: equal values are exact duplicates.
    struct Transaction: Sendable, Hashable {
        var id: String
        var original: String?
        var customer: String
        var product: String
        var type: String
        var purchased: Int64
        var expires: Int64?
        var revoked: Int64?
        var state: String?
        var familyShared: Bool
        var isSandbox: Bool
        /// 0 none, 1 4.99 USD, 2 zero (`TransactionRow.price`).
        var price: Int
        var grace: Int64?
    }

    /// The first valid row of each customer id (a later one with other content is rejected,
    /// SPEC §8.7, and an identical one adds nothing).
    var customers: [Customer] = []
    /// Every valid transactions row, duplicates and conflicts included.
    var transactions: [Transaction] = []

    init() {}

    /// The valid rows of `dataset`, every id prefixed with `prefix` (so that datasets can be merged).
    init(_ dataset: GeneratedDataset, prefix: String = "") {
        var seen: Set<String> = []
        for row in dataset.customers where row.defect == .none {
            let id = prefix + Pools.customerIDs[row.id]
            guard seen.insert(id).inserted else { continue }
            customers.append(
                Customer(
                    id: id, platform: Pools.platforms[row.platform].0, version: Pools.versions[row.version],
                    purchased: Pools.dates[row.purchase], isSandbox: row.isSandbox,
                    preordered: row.hasPreorder ? Pools.cutover - 10 * Pools.day : nil,
                    storefront: Pools.storefronts[row.storefront]))
        }
        for row in dataset.transactions where row.defect == .none {
            transactions.append(
                Transaction(
                    id: prefix + Pools.transactionIDs[row.id], original: row.id % 3 == 0 ? prefix + "o\(row.id)" : nil,
                    customer: prefix + Pools.transactionCustomerIDs[row.customer], product: Pools.products[row.product],
                    type: Pools.productTypes[row.type], purchased: Pools.dates[row.purchase] ?? 0,
                    expires: Pools.expiries[row.expires], revoked: row.isRevoked ? Pools.cutover + 10 * Pools.day : nil,
                    state: Pools.renewalStates[row.renewalState], familyShared: row.ownership == 2,
                    isSandbox: row.isSandbox, price: row.price, grace: row.hasGrace ? Pools.asOf + 5 * Pools.day : nil))
        }
    }

    /// Several datasets as one (their ids prefixed apart).
    init(merging parts: [TwinData]) {
        customers = parts.flatMap(\.customers)
        transactions = parts.flatMap(\.transactions)
    }

    /// The same data moved to what RevenueCat can say, so that most customers are compared
    /// (the drawn data leaves most out, `TwinGap`): every customer in production, on iOS
    /// unless on macOS, without a preorder; an iOS customers row, with a version and a date by
    /// turns, for every id transactions name without one (orphans); each product one type (its
    /// first row's: a product is one thing to RevenueCat, SPEC §9); and the renewal state the
    /// export writes for each row whose own state would give another result.
    var fittedToRevenueCat: TwinData {
        var fitted = self
        var named = Set(customers.map(\.id))
        for index in fitted.customers.indices {
            fitted.customers[index].isSandbox = false
            fitted.customers[index].preordered = nil
            if fitted.customers[index].platform != "macos" { fitted.customers[index].platform = "ios" }
        }
        for row in transactions where named.insert(row.customer).inserted {
            let turn = fitted.customers.count
            fitted.customers.append(
                Customer(
                    id: row.customer, platform: "ios", version: Pools.versions[turn % Pools.versions.count],
                    purchased: Pools.dates[turn % Pools.dates.count], isSandbox: false, preordered: nil, storefront: nil
                ))
        }
        var types: [String: String] = [:]
        for index in fitted.transactions.indices {
            let row = fitted.transactions[index]
            fitted.transactions[index].type = types[row.product, default: row.type]
            types[row.product] = fitted.transactions[index].type
        }
        for index in fitted.transactions.indices where TwinGap.gap(fitted.transactions[index]) != nil {
            fitted.transactions[index].state = TwinGap.exportState(fitted.transactions[index])
        }
        return fitted
    }

    /// The same data with one row per transaction id: each further distinct row of an id
    /// (another version, or another customer's) gets an id of its own, so that no later
    /// response resolves versions the canonical files keep apart.
    var withUniqueTransactionIDs: TwinData {
        var unique = self
        var seen: [String: [Transaction]] = [:]
        for index in unique.transactions.indices {
            let row = unique.transactions[index]
            let versions = seen[row.id, default: []]
            if let same = versions.firstIndex(of: row) {
                unique.transactions[index].id = same == 0 ? row.id : "\(row.id)~\(same)"
            } else {
                if !versions.isEmpty { unique.transactions[index].id = "\(row.id)~\(versions.count)" }
                seen[row.id, default: []].append(row)
            }
        }
        return unique
    }

    // MARK: - Canonical files

    /// customers.csv and transactions.csv.
    var canonicalFiles: [FixtureFile] {
        let customerRows = customers.map { customer in
            [
                customer.id, customer.platform, customer.version, customer.purchased.map(Self.iso),
                customer.isSandbox ? "sandbox" : "production", customer.preordered.map(Self.iso), customer.storefront,
            ]
        }
        let transactionRows = transactions.map { row in
            [
                row.id, row.original, row.customer, row.product, row.type, Self.iso(row.purchased),
                row.expires.map(Self.iso), row.revoked.map(Self.iso), row.familyShared ? "family_shared" : "purchased",
                row.isSandbox ? "sandbox" : "production", ["", "4.99", "0"][row.price], row.price == 1 ? "USD" : nil,
                row.state, row.grace.map(Self.iso),
            ]
        }
        return [
            FixtureFile(
                "customers.csv",
                Self.csv(
                    [
                        "customer_id", "platform", "original_app_version", "original_purchase_date", "environment",
                        "preorder_date", "storefront",
                    ], customerRows)),
            FixtureFile(
                "transactions.csv",
                Self.csv(
                    [
                        "transaction_id", "original_transaction_id", "customer_id", "product_id", "product_type",
                        "purchase_date", "expires_date", "revocation_date", "ownership_type", "environment", "price",
                        "currency", "renewal_state", "grace_period_expires_date",
                    ], transactionRows)),
        ]
    }

    // MARK: - RevenueCat files

    /// When RevenueCat last changed every row, and answered every request: one instant, so
    /// that no delivery supersedes another and the export keeps every version of a
    /// transaction, as the canonical files do (SPEC §8.23).
    static let updatedAt = Pools.asOf - 2 * Pools.day

    /// When a response that holds its customer's purchases was asked for: after the export
    /// was written, so that each of its purchases is the latest delivery of its transaction.
    static let requestedAfter = updatedAt + Pools.day

    /// The export, the subscriber responses and the customer list.
    /// - Parameters:
    ///   - entitlements: RevenueCat's active entitlements per customer, name → expires date
    ///     (`nil`: lifetime) and the product RevenueCat names for it, which a response
    ///     reports beside its facts.
    ///   - purchases: whether each response holds its customer's purchases, as RevenueCat
    ///     shows them (`subscriptions`: the latest transaction of each auto-renewable product;
    ///     `non_subscriptions`: every other one, with only what an item carries), asked for
    ///     after the export was written; else none, asked for when the export was.
    ///   - export: whether the export is among the files (else the responses and the list alone).
    func revenueCatFiles(
        seed: UInt64, entitlements: [String: [String: (expires: Instant?, product: String?)]], purchases: Bool = false,
        export withExport: Bool = true
    ) -> [FixtureFile] {
        var random = SplitMix(seed: seed)
        let platforms = Dictionary(customers.map { ($0.id, $0.platform) }, uniquingKeysWith: { first, _ in first })
        var export = TwinExport(platforms: platforms, seed: random.next())
        let byCustomer = Dictionary(grouping: transactions, by: \.customer)
        let responses = customers.map { customer in
            let granted = (entitlements[customer.id] ?? [:]).sorted { $0.key < $1.key }.map { name, granted in
                "\(quoted(name)): {\"expires_date\": \(granted.expires.map { quoted($0.iso8601) } ?? "null")"
                    + (granted.product.map { ", \"product_identifier\": \(quoted($0))" } ?? "") + "}"
            }
            var purchasesHeld: (subscriptions: String, items: String) = ("{}", "{}")
            if purchases { purchasesHeld = Self.purchases(byCustomer[customer.id] ?? [], platform: customer.platform) }
            var version = customer.version.map(quoted) ?? "null"
            if let text = customer.version, text.first != "0", text.allSatisfy({ $0.isNumber || $0 == "." }),
                text.filter({ $0 == "." }).count <= 1, Bool.random(using: &random)
            {
                version = text
            }
            let requested: String = quoted(Self.iso(purchases ? Self.requestedAfter : Self.updatedAt))
            let purchased: String = customer.purchased.map { quoted(Self.iso($0)) } ?? "null"
            let facts: String =
                "\"original_app_user_id\": \(quoted(customer.id)), \"original_application_version\": \(version), "
                + "\"original_purchase_date\": \(purchased), "
                + "\"first_seen\": \(quoted(Self.iso(Pools.cutover - 30 * Pools.day))), "
            let held: String =
                "\"entitlements\": {\(granted.joined(separator: ", "))}, \"subscriptions\": \(purchasesHeld.subscriptions), "
                + "\"non_subscriptions\": \(purchasesHeld.items), \"other_purchases\": {}"
            return "{\"request_date\": \(requested), \"subscriber\": {" + facts + held + "}}\n"
        }
        let testers = Set(transactions.filter(\.isSandbox).map(\.customer))
        let list = customers.map { customer in
            let names = customer.platform == "macos" ? ["mac_app_store", "Mac App Store"] : ["app_store", "App Store"]
            let firstSeen = String((Pools.cutover - 30 * Pools.day) * 1000) + (Bool.random(using: &random) ? ".0" : "")
            return [
                customer.id, firstSeen, names.randomElement(using: &random), testers.contains(customer.id) ? "t" : "f",
            ]
        }
        let files = [
            FixtureFile(
                "customer_list.csv",
                Self.csv(["app_user_id", "first_seen_at", "latest_store", "has_made_sandbox_purchase"], list)),
            FixtureFile("subscribers.jsonl", responses.joined()),
        ]
        guard withExport else { return files }
        return files + [FixtureFile("transactions_2024-06-01.csv.gz", bytes: Gzip.member(export.bytes(transactions)))]
    }

    /// The export alone, beside the canonical customers file for the app-purchase facts (no
    /// RevenueCat file carries a preorder, and only a response a version): what a team that
    /// keeps its own customer table and RevenueCat's transactions holds.
    func exportWithCustomersFile(seed: UInt64) -> [FixtureFile] {
        var random = SplitMix(seed: seed)
        let platforms = Dictionary(customers.map { ($0.id, $0.platform) }, uniquingKeysWith: { first, _ in first })
        var export = TwinExport(platforms: platforms, seed: random.next())
        let customersFile = canonicalFiles.filter { $0.name == "customers.csv" }
        return customersFile + [
            FixtureFile("transactions_2024-06-01.csv.gz", bytes: Gzip.member(export.bytes(transactions)))
        ]
    }

    /// What subscriber responses holding their customers' purchases state of this data
    /// (`purchases(_:platform:)`): of each customer's auto-renewable products the latest
    /// transaction alone (the first of exact repeats), without the original id a subscription
    /// has no place for, its state as the response's dates tell it; every other purchase with
    /// only what an item carries (no expiry, refund, ownership, state or grace end).
    var responseView: TwinData {
        var view = self
        var latest: [String: Transaction] = [:]
        for row in transactions where row.type == "auto_renewable" {
            let key = "\(row.customer)\u{0}\(row.product)"
            if let kept = latest[key], (kept.purchased, kept.id) >= (row.purchased, row.id) { continue }
            latest[key] = row
        }
        var kept: Set<String> = []
        view.transactions = transactions.compactMap { row in
            var copy = row
            copy.original = nil
            guard row.type == "auto_renewable" else {
                copy.expires = nil
                copy.revoked = nil
                copy.familyShared = false
                copy.state = nil
                copy.grace = nil
                return copy
            }
            let key = "\(row.customer)\u{0}\(row.product)"
            guard latest[key] == row, kept.insert(key).inserted else { return nil }
            copy.state = TwinGap.exportState(row)
            return copy
        }
        return view
    }

    /// A customer's purchases as a response holds them: `subscriptions` keyed by product, the
    /// latest transaction of each auto-renewable one; `non_subscriptions` every other one,
    /// with only what an item carries (FORMATS.md §b).
    static func purchases(_ rows: [Transaction], platform: String) -> (subscriptions: String, items: String) {
        let store = quoted(platform == "macos" ? "mac_app_store" : "app_store")
        func price(_ row: Transaction) -> String? {
            switch row.price {
            case 1: return "\"price\": {\"amount\": 4.99, \"currency\": \"USD\"}"
            case 2: return "\"price\": {\"amount\": 0, \"currency\": null}"
            default: return nil
            }
        }
        func time(_ seconds: Int64?) -> String { seconds.map { quoted(iso($0)) } ?? "null" }
        var latest: [String: Transaction] = [:]
        for row in rows where row.type == "auto_renewable" {
            if let kept = latest[row.product], (kept.purchased, kept.id) >= (row.purchased, row.id) { continue }
            latest[row.product] = row
        }
        let subscriptions = latest.keys.sorted().compactMap { product -> String? in
            guard let row = latest[product] else { return nil }
            let fields = [
                "\"store\": \(store)", "\"store_transaction_id\": \(quoted(row.id))",
                "\"purchase_date\": \(time(row.purchased))", "\"expires_date\": \(time(row.expires))",
                "\"refunded_at\": \(time(row.revoked))", "\"grace_period_expires_date\": \(time(row.grace))",
                "\"billing_issues_detected_at\": "
                    + (row.state == "in_billing_retry" ? time(row.expires ?? row.purchased) : "null"),
                "\"is_sandbox\": \(row.isSandbox)",
                "\"ownership_type\": \(quoted(row.familyShared ? "FAMILY_SHARED" : "PURCHASED"))",
            ]
            return "\(quoted(product)): {" + (fields + [price(row)].compactMap { $0 }).joined(separator: ", ") + "}"
        }
        var items: [String: [String]] = [:]
        for row in rows where row.type != "auto_renewable" {
            let fields = [
                "\"id\": \(quoted("p-" + row.id))", "\"store\": \(store)",
                "\"store_transaction_id\": \(quoted(row.id))", "\"purchase_date\": \(time(row.purchased))",
                "\"is_sandbox\": \(row.isSandbox)",
            ]
            items[row.product, default: []].append(
                "{" + (fields + [price(row)].compactMap { $0 }).joined(separator: ", ") + "}")
        }
        let listed = items.keys.sorted().map { "\(quoted($0)): [\(items[$0, default: []].joined(separator: ", "))]" }
        return ("{" + subscriptions.joined(separator: ", ") + "}", "{" + listed.joined(separator: ", ") + "}")
    }

    // MARK: - Writing

    static func iso(_ seconds: Int64) -> String { Pools.wallTime(seconds) + "Z" }

    /// A CSV file: a header, then one record a row; a cell quoted when it must be.
    static func csv(_ header: [String], _ rows: [[String?]]) -> String {
        func cell(_ text: String?) -> String {
            guard let text else { return "" }
            guard text.contains(where: { [",", "\"", "\n", "\r"].contains($0) }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return ([header] + rows).map { $0.map(cell).joined(separator: ",") + "\n" }.joined()
    }
}

extension TwinData {
    /// A customer's rows, for a message.
    func rows(of id: String) -> String {
        "\(customers.filter { $0.id == id }) \(transactions.filter { $0.customer == id })"
    }
}
