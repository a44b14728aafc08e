import Foundation
import Testing

/// Issue 52, acceptance 1: one dataset written as SPEC §2's files and as three teams' own
/// exports (renamed columns, other spellings of platforms, types, states and environments,
/// epoch seconds, local times in a zone, JSON Lines with epoch milliseconds), each read through
/// `map --suggest`'s draft (edited only where it says it could not decide: the zone), gives the
/// canonical run's classes, flags and entitlements for every customer (`customers.csv`, byte
/// for byte).
@Suite struct MappedTwinTests {
    static let cutover: Int64 = 1_741_107_600  // 2025-03-04T17:00:00Z
    static let asOf = "2026-01-15T00:00:00Z"
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    struct Customer {
        var id: String
        var platform: String
        var version: String
        var purchased: Int64
        var sandbox: Bool
    }

    struct Transaction {
        var id: String
        var customer: String
        var product: String
        var type: String
        var purchased: Int64
        var expires: Int64?
        var revoked: Int64?
        var familyShared: Bool
        var state: String?
        var grace: Int64?
        var price: String
    }

    /// A deterministic dataset: whole seconds, never within a day of a change of Berlin's
    /// offset (a local time there names two instants, or none).
    static func dataset() -> ([Customer], [Transaction]) {
        var state: UInt64 = 52
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func instant(_ base: Int64, within seconds: Int) -> Int64 {
            var value = base + Int64(next(2 * seconds)) - Int64(seconds)
            while berlin.secondsFromGMT(for: Date(timeIntervalSince1970: Double(value - 86_400)))
                != berlin.secondsFromGMT(for: Date(timeIntervalSince1970: Double(value + 86_400)))
            {
                value += 2 * 86_400
            }
            return value
        }
        var customers: [Customer] = []
        var transactions: [Transaction] = []
        let platforms = ["ios", "ipados", "macos", "android"]
        let versions = ["300", "405", "411", "412", "420", "2.5", "3.0"]
        let products = [
            ("pro_monthly", "auto_renewable"), ("pro_yearly", "auto_renewable"), ("season_2025", "non_renewing"),
            ("lifetime_unlock", "non_consumable"), ("coins_100", "consumable"),
        ]
        let states = ["subscribed", "expired", "in_billing_retry", "in_grace_period"]
        for index in 0..<240 {
            let id = String(format: "user-%04d", index)
            // A quarter within two days of the cutover, so the edge flags turn up.
            let purchased =
                next(4) == 0 ? instant(cutover, within: 2 * 86_400) : instant(cutover, within: 400 * 86_400)
            customers.append(
                Customer(
                    id: id, platform: platforms[next(platforms.count)], version: versions[next(versions.count)],
                    purchased: purchased, sandbox: next(20) == 0))
            for number in 0..<next(4) {
                let (product, type) = products[next(products.count)]
                let bought = instant(cutover + 120 * 86_400, within: 300 * 86_400)
                var transaction = Transaction(
                    id: "\(id)-t\(number)", customer: id, product: product, type: type, purchased: bought,
                    expires: nil, revoked: nil, familyShared: next(15) == 0, state: nil, grace: nil,
                    price: ["4.99", "39.99", "0.99"][next(3)])
                if type == "auto_renewable" {
                    transaction.expires = bought + (product == "pro_monthly" ? 30 : 365) * 86_400
                    if next(2) == 0 {
                        transaction.state = states[next(states.count)]
                        if transaction.state == "in_grace_period", let expires = transaction.expires {
                            transaction.grace = expires + 16 * 86_400
                        }
                    }
                }
                if next(12) == 0 { transaction.revoked = bought + 3 * 86_400 }
                transactions.append(transaction)
            }
        }
        return (customers, transactions)
    }

    static func iso(_ seconds: Int64?) -> String {
        guard let seconds else { return "" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    static func berlinWallTime(_ seconds: Int64?) -> String {
        guard let seconds else { return "" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = berlin
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    static func text(_ seconds: Int64?, _ scale: Int64) -> String { seconds.map { String($0 * scale) } ?? "" }

    /// The canonical files.
    static func canonical(_ customers: [Customer], _ transactions: [Transaction]) -> [(String, String)] {
        var c = "customer_id,platform,original_app_version,original_purchase_date,environment\n"
        for x in customers {
            c += "\(x.id),\(x.platform),\(x.version),\(iso(x.purchased)),\(x.sandbox ? "sandbox" : "production")\n"
        }
        var t =
            "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,revocation_date,"
            + "ownership_type,renewal_state,grace_period_expires_date,price,currency\n"
        for x in transactions {
            t +=
                "\(x.id),\(x.customer),\(x.product),\(x.type),\(iso(x.purchased)),\(iso(x.expires)),\(iso(x.revoked)),"
                + "\(x.familyShared ? "family_shared" : "purchased"),\(x.state ?? ""),\(iso(x.grace)),\(x.price),USD\n"
        }
        return [("customers.csv", c), ("transactions.csv", t)]
    }

    /// A team's CSV: renamed columns, epoch seconds, the platforms, types, states and
    /// environments as its app spells them.
    static func epochSecondsShape(_ customers: [Customer], _ transactions: [Transaction]) -> [(String, String)] {
        let platforms = ["ios": "iPhone", "ipados": "iPad", "macos": "Mac", "android": "Android"]
        let types = [
            "auto_renewable": "subscription", "non_renewing": "season_pass", "non_consumable": "lifetime",
            "consumable": "coins",
        ]
        let states = [
            "subscribed": "active", "expired": "cancelled", "in_billing_retry": "Billing Issue",
            "in_grace_period": "grace",
        ]
        var c = "user_id,os,app_version,first_seen_at,is_sandbox\n"
        for x in customers {
            c += "\(x.id),\(platforms[x.platform] ?? ""),\(x.version),\(x.purchased),\(x.sandbox)\n"
        }
        var t =
            "txn_id,user_id,sku,type,purchased_at,expires_at,refunded_at,family_shared,status,grace_until,amount,currency_code\n"
        for x in transactions {
            t +=
                "\(x.id),\(x.customer),\(x.product),\(types[x.type] ?? ""),\(x.purchased),\(text(x.expires, 1)),"
                + "\(text(x.revoked, 1)),\(x.familyShared),\(x.state.flatMap { states[$0] } ?? ""),\(text(x.grace, 1)),"
                + "\(x.price),USD\n"
        }
        return [("users-2026-01-14.csv", c), ("purchases-2026-01-14.csv", t)]
    }

    /// A team's CSV of local times in Berlin, its columns named as a spreadsheet names them.
    static func localTimesShape(_ customers: [Customer], _ transactions: [Transaction]) -> [(String, String)] {
        var c = "Account ID,Platform,Original Version,Installed At,Env\n"
        for x in customers {
            c +=
                "\(x.id),\(x.platform.uppercased()),\(x.version),\(berlinWallTime(x.purchased)),\(x.sandbox ? "test" : "prod")\n"
        }
        var t =
            "Order ID,Account ID,Product,Purchase Type,Bought At,Expiration Date,Refunded At,Ownership,State,Grace Until,Amount,Currency\n"
        for x in transactions {
            t +=
                "\(x.id),\(x.customer),\(x.product),\(x.type),\(berlinWallTime(x.purchased)),\(berlinWallTime(x.expires)),"
                + "\(berlinWallTime(x.revoked)),\(x.familyShared ? "family" : "own"),\(x.state ?? ""),"
                + "\(berlinWallTime(x.grace)),\(x.price),USD\n"
        }
        return [("accounts.csv", c), ("orders.csv", t)]
    }

    /// JSON Lines with epoch milliseconds.
    static func jsonLinesShape(_ customers: [Customer], _ transactions: [Transaction]) throws -> [(String, String)] {
        func line(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
                + "\n"
        }
        var c = ""
        for x in customers {
            c += try line([
                "uid": x.id, "device": x.platform == "android" ? "Android" : x.platform, "first_version": x.version,
                "created_at": x.purchased * 1000, "env": x.sandbox ? "sandbox" : "live",
            ])
        }
        var t = ""
        for x in transactions {
            var object: [String: Any] = [
                "purchase_id": x.id, "account_id": x.customer, "plan": x.product,
                "kind": x.type == "non_consumable" ? "one_time" : x.type, "created_at": x.purchased * 1000,
                "ownership": x.familyShared ? "family_shared" : "purchased", "amount": Double(x.price) ?? 0,
                "currency": "USD",
            ]
            if let expires = x.expires { object["expires_at"] = expires * 1000 }
            if let revoked = x.revoked { object["revoked_at"] = revoked * 1000 }
            if let state = x.state { object["subscription_status"] = state }
            if let grace = x.grace { object["grace_until"] = grace * 1000 }
            t += try line(object)
        }
        return [("app-users.jsonl", c), ("app-purchases.jsonl", t)]
    }

    @Test(arguments: ["epoch seconds", "local times", "JSON Lines"])
    func aForeignShapeGivesTheCanonicalRun(shape: String) throws {
        let (customers, transactions) = Self.dataset()
        let cli = try CLI()
        let policy = """
            {"name": "twin", "cutover": {"date": "2025-03-04T17:00:00Z", "basis": "either",
              "versions": {"ios": "412", "ipados": "412", "macos": "3.0"}},
             "grandfathered_entitlements": ["pro"],
             "products": {"pro_monthly": {"entitlements": ["pro"]}, "pro_yearly": {"entitlements": ["pro"]},
                          "season_2025": {"entitlements": ["pro"], "term_days": 120},
                          "lifetime_unlock": {"entitlements": ["pro"]}, "coins_100": {"entitlements": []}}}
            """
        try cli.write("policy.json", policy)
        for (name, text) in Self.canonical(customers, transactions) { try cli.write(name, text) }
        let canonical = try cli.run(
            [
                "audit", "--policy", "policy.json", "--as-of", Self.asOf, "--out", "canonical", "customers.csv",
                "transactions.csv",
            ])
        #expect(canonical.status == 0, "\(canonical.stderr)")

        let files: [(String, String)]
        switch shape {
        case "epoch seconds": files = Self.epochSecondsShape(customers, transactions)
        case "local times": files = Self.localTimesShape(customers, transactions)
        default: files = try Self.jsonLinesShape(customers, transactions)
        }
        for (name, text) in files { try cli.write(name, text) }
        let suggested = try cli.run(["map", "--suggest"] + files.map(\.0))
        #expect(suggested.status == 0, "\(suggested.stderr)")
        // The draft, edited only where it says it could not decide.
        var draft = try #require(try JSONSerialization.jsonObject(with: Data(suggested.stdout.utf8)) as? [String: Any])
        var entries = try #require(draft["files"] as? [[String: Any]])
        for index in entries.indices {
            let undecided = entries[index]["undecided"] as? [String] ?? []
            for question in undecided {
                let field = try #require(
                    question.split(separator: ".").dropFirst().first.map(String.init), "\(question)")
                #expect(
                    question.hasPrefix("times.") && question.contains(".zone:"), "only zones are asked: \(question)")
                var times = entries[index]["times"] as? [String: [String: Any]] ?? [:]
                times[field]?["zone"] = "Europe/Berlin"
                entries[index]["times"] = times
            }
            entries[index]["undecided"] = nil
        }
        draft["files"] = entries
        try cli.write(
            "mapping.json", String(decoding: try JSONSerialization.data(withJSONObject: draft), as: UTF8.self))
        let mapped = try cli.run(
            ["audit", "--policy", "policy.json", "--map", "mapping.json", "--as-of", Self.asOf, "--out", "mapped"]
                + files.map(\.0))
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(
            mapped.stdout.split(separator: "\n").first == canonical.stdout.split(separator: "\n").first,
            "the counts: \(mapped.stdout)")
        let expected = try String(contentsOfFile: cli.path("canonical/latest/customers.csv"), encoding: .utf8)
        let got = try String(contentsOfFile: cli.path("mapped/latest/customers.csv"), encoding: .utf8)
        let differing = zip(expected.split(separator: "\n"), got.split(separator: "\n")).filter { $0 != $1 }
        #expect(got == expected, "\(differing.prefix(3))")
        let rejected = try String(contentsOfFile: cli.path("mapped/latest/rejected.csv"), encoding: .utf8)
        #expect(rejected == "file,line,column,field,reason\n")
        let summary = try String(contentsOfFile: cli.path("mapped/latest/summary.json"), encoding: .utf8)
        #expect(summary.contains("\"mapping\" : {"), "the mapping's digest beside the policy's")
    }
}
