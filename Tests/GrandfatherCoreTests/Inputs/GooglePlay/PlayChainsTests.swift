import Testing

@testable import GrandfatherCore

/// `PlaySubscriptionRules.Chains` (issue 51, item 1): each token's first token and customer,
/// worked out once for the whole forest of `linkedPurchaseToken` links, give what following
/// each token's links on its own gave (`walked`, kept here as the reference), on random forests,
/// and a long chain or loop costs steps in proportion to its length.
@Suite struct PlayChainsTests {
    static func snapshot(_ token: String, linked: String?, customer: String?) -> PlaySubscriptionRules.Snapshot {
        .init(
            token: token, customerID: customer, linkedToken: linked, state: .active, start: nil, items: [],
            isTest: false, latestOrderID: nil)
    }

    /// The reference: each token's links followed one at a time (the walk before issue 51).
    static func walked(_ snapshots: [String: PlaySubscriptionRules.Snapshot], _ token: String)
        -> (root: String, customer: String?)
    {
        var linkedFrom: [String: [String]] = [:]
        for (token, snapshot) in snapshots {
            if let linked = snapshot.linkedToken { linkedFrom[linked, default: []].append(token) }
        }
        linkedFrom = linkedFrom.mapValues { $0.sorted() }
        var root = token
        var seen: Set<String> = [token]
        var customer = snapshots[token]?.customerID
        while let linked = snapshots[root]?.linkedToken, seen.insert(linked).inserted {
            if customer == nil { customer = snapshots[linked]?.customerID }
            root = linked
        }
        var level = linkedFrom[token] ?? []
        while customer == nil, !level.isEmpty {
            customer = level.lazy.compactMap { snapshots[$0]?.customerID }.first
            level = level.flatMap { linkedFrom[$0] ?? [] }.filter { seen.insert($0).inserted }
        }
        return (root, customer)
    }

    /// A random forest of up to 14 tokens: each links to an earlier one (with `loops`, to any,
    /// itself among them), to a token with no response, or to nothing, and a few name a
    /// customer.
    static func forest(_ generator: inout some RandomNumberGenerator, loops: Bool = false)
        -> [String: PlaySubscriptionRules.Snapshot]
    {
        let count = Int.random(in: 1...14, using: &generator)
        // Names drawn apart from places, so that the token order is not the link order.
        let names = (0..<count).map { "t\($0)" }.shuffled(using: &generator)
        var snapshots: [String: PlaySubscriptionRules.Snapshot] = [:]
        for index in 0..<count {
            var linked: String?
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: linked = nil
            case 1: linked = "gone\(index % 2)"
            default:
                let reach = loops ? count : index
                linked = reach == 0 ? nil : names[Int.random(in: 0..<reach, using: &generator)]
            }
            let customer = Int.random(in: 0..<4, using: &generator) == 0 ? "c\(index)" : nil
            snapshots[names[index]] = snapshot(names[index], linked: linked, customer: customer)
        }
        return snapshots
    }

    @Test func aForestGivesWhatEachTokensOwnWalkGave() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let snapshots = Self.forest(&generator)
            let chains = PlaySubscriptionRules.Chains(snapshots)
            for token in snapshots.keys {
                let expected = Self.walked(snapshots, token)
                #expect(
                    chains.root(of: token) == expected.root, "\(snapshots.values.map { ($0.token, $0.linkedToken) })")
                #expect(chains.customer(of: token) == expected.customer, "\(token) in \(snapshots)")
            }
        }
    }

    /// Forests with loops (the kit's `IdentityForest` finds each by its closing link): every
    /// token's root is its chain's end, or its loop's least token, and a token with a named
    /// token at or above it (around its loop too) takes the nearest, as following its own links
    /// finds them.
    @Test func forestsWithLoopsGiveWhatFollowingTheLinksFinds() {
        var generator = SystemRandomNumberGenerator()
        var loops = 0
        for _ in 0..<2_000 {
            let snapshots = Self.forest(&generator, loops: true)
            let chains = PlaySubscriptionRules.Chains(snapshots)
            for token in snapshots.keys {
                var path = [token]
                var customer = snapshots[token]?.customerID
                let root: String
                while true {
                    guard let linked = snapshots[path[path.count - 1]]?.linkedToken else {
                        root = path[path.count - 1]
                        break
                    }
                    guard let next = snapshots[linked] else {
                        root = linked
                        break
                    }
                    if let start = path.firstIndex(of: linked) {
                        loops += 1
                        root = path[start...].min() ?? linked
                        break
                    }
                    path.append(linked)
                    customer = customer ?? next.customerID
                }
                #expect(chains.root(of: token) == root, "\(token) in \(snapshots)")
                if let customer { #expect(chains.customer(of: token) == customer, "\(token) in \(snapshots)") }
            }
        }
        #expect(loops > 1_000)
    }

    @Test func aLoopIsOneChainWhoseCustomerIsTheNearestNamedToken() {
        // a → b → c → a; only b names a customer; d hangs below c and names none; e below d does.
        let snapshots = Dictionary(
            uniqueKeysWithValues: [
                Self.snapshot("b", linked: "c", customer: "bea"),
                Self.snapshot("a", linked: "b", customer: nil),
                Self.snapshot("c", linked: "a", customer: nil),
                Self.snapshot("d", linked: "c", customer: nil),
            ].map { ($0.token, $0) })
        let chains = PlaySubscriptionRules.Chains(snapshots)
        #expect(["a", "b", "c", "d"].map(chains.root(of:)) == ["a", "a", "a", "a"])
        #expect(["a", "b", "c", "d"].map(chains.customer(of:)) == ["bea", "bea", "bea", "bea"])
        // A loop naming nobody takes the nearest token below it that does.
        let nameless = Dictionary(
            uniqueKeysWithValues: [
                Self.snapshot("x", linked: "y", customer: nil),
                Self.snapshot("y", linked: "x", customer: nil),
                Self.snapshot("z", linked: "y", customer: nil),
                Self.snapshot("w", linked: "z", customer: "wil"),
            ].map { ($0.token, $0) })
        let below = PlaySubscriptionRules.Chains(nameless)
        #expect(["x", "y", "z", "w"].map(below.customer(of:)) == ["wil", "wil", "wil", "wil"])
    }

    @Test func aLongChainAndALongLoopAreResolved() {
        let count = 200_000
        var chain: [String: PlaySubscriptionRules.Snapshot] = [:]
        var loop: [String: PlaySubscriptionRules.Snapshot] = [:]
        for index in 0..<count {
            let token = "t\(index)"
            chain[token] = Self.snapshot(token, linked: index == 0 ? nil : "t\(index - 1)", customer: nil)
            loop[token] = Self.snapshot(token, linked: "t\((index + count - 1) % count)", customer: nil)
        }
        chain["t\(count - 1)"]?.customerID = "last"
        loop["t7"]?.customerID = "seven"
        let chains = PlaySubscriptionRules.Chains(chain)
        #expect(chains.root(of: "t\(count - 1)") == "t0")
        #expect(chains.customer(of: "t0") == "last", "the nearest later token that names one")
        let looped = PlaySubscriptionRules.Chains(loop)
        #expect(looped.root(of: "t5") == "t0")
        #expect(looped.customer(of: "t6") == "seven" && looped.customer(of: "t8") == "seven")
    }
}
