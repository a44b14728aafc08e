import Foundation
import PropertyBased
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Issue 37, acceptance 2, for claimed orders: a drawn population of Android customers, each
/// with its purchase date in the canonical customers file, and its twin, where the date is
/// gone from the customers file and the customer claims a Google Play order instead (a sales
/// report listing the orders, a claims file): every customer gets the same class, grants and
/// flags, and exactly the claims that give no evidence raise their flags.
@Suite struct ClaimedOrderTwinTests {
    /// What a drawn customer bought, and what its twin claims.
    enum Claim: CaseIterable {
        /// Bought the paid app, and claims its order.
        case claimed
        /// Bought the paid app, and claims nothing: its order is in the report, unclaimed.
        case unclaimed
        /// Bought and was refunded, and claims the refunded order.
        case refunded
        /// Claims an order no report lists.
        case notFound
        /// Claims an order another customer (its partner, `<id>-b`) claims too.
        case duplicate
        /// Never bought the app, and claims nothing.
        case none
    }

    struct Drawn {
        var id: String
        var claim: Claim
        /// When the paid app was charged (claimed, unclaimed, refunded, duplicate).
        var bought: Instant?
        /// A monthly subscription bought after the cutover, ending at this instant.
        var subscriptionEnds: Instant?
    }

    /// `PolicySpec`'s cutover, 2024-03-01T00:00:00Z, and as-of, 2024-06-01T00:00:00Z.
    static let cutover: Int64 = 1_709_251_200
    static let asOf: Int64 = 1_717_200_000

    static func draw(_ count: Int, using random: inout Xoshiro) -> [Drawn] {
        (0..<count).map { index in
            let claim = Claim.allCases.randomElement(using: &random) ?? .none
            // Within a day of the cutover either side now and then, so the edge flags turn up.
            let near = Bool.random(using: &random)
            let offset =
                near
                ? Int64.random(in: -86_400...86_400, using: &random)
                : Int64.random(in: -40_000_000...4_000_000, using: &random)
            let bought = claim == .none || claim == .notFound ? nil : Instant(seconds: cutover + offset)
            let subscribes = Int.random(in: 0..<3, using: &random) == 0
            let ends =
                subscribes ? Instant(seconds: asOf + Int64.random(in: -3_000_000...3_000_000, using: &random)) : nil
            return Drawn(id: "and-\(index)", claim: claim, bought: bought, subscriptionEnds: ends)
        }
    }

    /// The canonical files: each customer's purchase date, when it stands (a refunded or
    /// doubly claimed purchase is no evidence, so the canonical customer has none).
    static func canonical(_ drawn: [Drawn]) -> [FixtureFile] {
        let customers = drawn.map { customer -> String in
            let stands = customer.claim == .claimed
            return "\(customer.id),android,\(stands ? customer.bought?.iso8601 ?? "" : "")"
        }
        let partners = drawn.filter { $0.claim == .duplicate }.map { "\($0.id)-b,android," }
        return [
            FixtureFile("customers.csv", "customer_id,platform,original_purchase_date\n" + lines(customers + partners)),
            FixtureFile("transactions.csv", transactions(drawn)),
        ]
    }

    /// The twin: no dates in the customers file; a sales report of the orders, and the claims.
    static func twin(_ drawn: [Drawn]) -> [FixtureFile] {
        var orders: [String] = []
        var claims: [String] = []
        for (index, customer) in drawn.enumerated() {
            let order = "GPA.3300-0000-0000-\(String(format: "%05d", index))"
            if let bought = customer.bought {
                let seconds = bought.wholeSeconds
                let day = String(bought.iso8601.prefix(10))
                let row = GooglePlaySalesReportTests.row(order, day, "\(seconds)")
                orders.append(row)
                if customer.claim == .refunded {
                    orders.append(GooglePlaySalesReportTests.row(order, day, "\(seconds)", "Refund"))
                }
            }
            switch customer.claim {
            case .claimed, .refunded, .notFound: claims.append("\(customer.id),\(order)")
            case .duplicate:
                claims.append("\(customer.id),\(order)")
                claims.append("\(customer.id)-b,\(order)")
            case .unclaimed, .none: break
            }
        }
        let customers =
            drawn.map { "\($0.id),android" } + drawn.filter { $0.claim == .duplicate }.map { "\($0.id)-b,android" }
        return [
            FixtureFile("customers.csv", "customer_id,platform\n" + lines(customers)),
            FixtureFile("transactions.csv", transactions(drawn)),
            FixtureFile("salesreport.csv", GooglePlaySalesReportTests.header + "\n" + lines(orders)),
            FixtureFile("claims.csv", "customer_id,order_number\n" + lines(claims)),
        ]
    }

    static func transactions(_ drawn: [Drawn]) -> String {
        let rows = drawn.compactMap { customer -> String? in
            guard let ends = customer.subscriptionEnds else { return nil }
            let bought = Instant(seconds: ends.wholeSeconds - 30 * 86_400)
            return "t-\(customer.id),\(customer.id),pro.monthly,auto_renewable,\(bought.iso8601),\(ends.iso8601)"
        }
        return "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date\n" + lines(rows)
    }

    static func lines(_ rows: [String]) -> String { rows.map { $0 + "\n" }.joined() }

    static let orderFlags: Set<String> = Set(Flag.allCases.filter { !$0.orderClaim.isEmpty }.map(\.code))

    @Test(arguments: ["date", "either"])
    func claimsGiveWhatTheCanonicalDatesGive(basis: String) throws {
        var random = Xoshiro(seed: (37, 2, 0, basis == "date" ? 1 : 2))
        let drawn = Self.draw(300, using: &random)
        let policy = PolicySpec(basis: basis)
        let canonical = try AuditFixture.run(Self.canonical(drawn), policy: policy)
        let twin = try AuditFixture.run(Self.twin(drawn), policy: policy)
        let twinResults = Dictionary(twin.audit.customers.map { ($0.customer.id, $0) }) { first, _ in first }
        #expect(Set(twinResults.keys) == Set(canonical.audit.customers.map(\.customer.id)))
        var exercised: Set<String> = []
        var classes: Set<CustomerClass> = []
        var compared = 0
        for result in canonical.audit.customers {
            let id = result.customer.id
            guard let twinned = twinResults[id] else { continue }
            var expected = TwinVerdict(result)
            // The claims that are no evidence raise their flags; the date the store gives
            // outranks no other source here, so nothing conflicts.
            let index = Int(id.dropFirst(4).prefix { $0 != "-" }) ?? -1
            let claim = id.hasSuffix("-b") ? .duplicate : drawn[index].claim
            var raised: Set<String> = []
            if claim == .refunded { raised.insert(Flag.orderRefunded.code) }
            if claim == .notFound { raised.insert(Flag.orderNotFound.code) }
            if claim == .duplicate { raised.insert(Flag.orderClaimedTwice.code) }
            expected.flags = (Set(expected.flags).union(raised)).sorted()
            let got = TwinVerdict(twinned)
            compared += 1
            #expect(got == expected, "\(id) \(claim) \(drawn[index].bought?.iso8601 ?? "-")")
            exercised.formUnion(got.flags)
            classes.insert(got.customerClass)
        }
        #expect(compared >= 300, "every drawn customer and partner compared")
        #expect(Self.orderFlags.isSubset(of: exercised), "not exercised: \(Self.orderFlags.subtracting(exercised))")
        #expect(exercised.isSuperset(of: ["bought_just_before_cutover", "bought_just_after_cutover"]))
        #expect(classes == [.grandfathered, .subscriber, .lapsed, .new])
    }
}
