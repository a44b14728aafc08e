import GrandfatherEngine

/// Google Play subscriptions weighed together (docs/GooglePlay.md, "Play subscriptions"): what
/// the run's `subscriptionsv2` responses, real-time developer notifications and voided
/// purchases say together of each purchase token. `PlaySubscriptionMapping`
/// (`Inputs/GooglePlay/`) maps what stands onto SPEC §2's transactions.
///
/// - **One transaction per purchase token** (per line item, when a response has several):
///   a token is one subscription purchase across its renewals. Of several responses for one
///   token, the one whose items expire latest stands, and of those the one whose state comes
///   later in a subscription's life, then the greater by content (`Snapshot.standsOver`),
///   never the one given last; the others are superseded (accepted, not used).
/// - **Its subscription** (`original_transaction_id`) is the first token of its
///   `linkedPurchaseToken` chain: an upgrade, downgrade or resubscription carries on the one
///   before it.
/// - **Its customer** is the response's own (`customer_id` beside it, else
///   `externalAccountIdentifiers.obfuscatedExternalAccountId`), else the customer of the
///   nearest token of its chain that names one, else a customer of its own,
///   `unlinked:<first token>`, flagged `unlinked_transactions`.
/// - **Dates**: `startTime` is the purchase, the line item's `expiryTime` the expiry.
/// - **State** (`subscriptionState`) → renewal state: active, canceled (renewal turned off,
///   access until the expiry) and paused (resumes by itself) are `subscribed`; in grace period
///   is `in_grace_period`, ending at the expiry, which Google Play extends over the grace
///   period, and the paid period ends where the run's `IN_GRACE_PERIOD` notification says;
///   on hold (account hold: no access while Google retries the payment) is
///   `in_billing_retry`; expired is `expired`. A pending purchase (pending, or pending and
///   then canceled) is nothing bought yet: accepted, no transaction.
/// - **Revocation**: the earliest void of the token (a `voidedpurchases` entry, a
///   `voidedPurchaseNotification`, a `SUBSCRIPTION_REVOKED` notification). A void of an
///   earlier renewal's order (`GPA.…..N` below the latest order's `N`) refunded a period that
///   is over: it has no bearing on access.
/// - A notification or void whose token no response names is rejected: it names no customer.
enum PlaySubscriptionRules {
    /// `subscriptionState`.
    enum State: String, CaseIterable, Sendable {
        case unspecified = "SUBSCRIPTION_STATE_UNSPECIFIED"
        case pending = "SUBSCRIPTION_STATE_PENDING"
        case active = "SUBSCRIPTION_STATE_ACTIVE"
        case paused = "SUBSCRIPTION_STATE_PAUSED"
        case inGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
        case onHold = "SUBSCRIPTION_STATE_ON_HOLD"
        case canceled = "SUBSCRIPTION_STATE_CANCELED"
        case expired = "SUBSCRIPTION_STATE_EXPIRED"
        case pendingPurchaseCanceled = "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"

        /// Where the state comes in a subscription's life: of two responses for one token whose
        /// items expire together, the later state was fetched later.
        var lifeOrder: Int {
            switch self {
            case .unspecified: 0
            case .pending: 1
            case .pendingPurchaseCanceled: 2
            case .active: 3
            case .inGracePeriod: 4
            case .onHold: 5
            case .paused: 6
            case .canceled: 7
            case .expired: 8
            }
        }

        /// Whether nothing has been bought yet.
        var isPending: Bool { self == .pending || self == .pendingPurchaseCanceled }

        /// SPEC §2's renewal state; `nil` when the response does not say.
        var renewalState: RenewalState? {
            switch self {
            case .active, .canceled, .paused: return .subscribed
            case .inGracePeriod: return .inGracePeriod
            case .onHold: return .inBillingRetry
            case .expired: return .expired
            case .unspecified, .pending, .pendingPurchaseCanceled: return nil
            }
        }
    }

    /// One product of a response (`lineItems[]`).
    struct LineItem: Equatable, Sendable {
        var productID: String
        var expiry: Instant?
        /// `autoRenewingPlan` (or no plan named); `false` for a `prepaidPlan`.
        var renews: Bool
        /// `autoRenewingPlan.recurringPrice` as a canonical decimal, and its currency.
        var price: String?
        var currency: String?
        var latestOrderID: String?
    }

    /// A `subscriptionsv2` response, with the purchase token it was fetched for.
    struct Snapshot: Equatable, Sendable {
        var token: String
        var customerID: String?
        var linkedToken: String?
        var state: State
        var start: Instant?
        var items: [LineItem]
        /// `testPurchase` is present: a license tester's purchase.
        var isTest: Bool
        /// The response's own `latestOrderId` (deprecated for the items' own).
        var latestOrderID: String?

        /// When its latest item expires.
        var expiry: Instant? { items.compactMap(\.expiry).max() }

        /// Whether this response stands over `other`, a response for the same token: the one
        /// whose items expire latest; then the one whose state comes later in a subscription's
        /// life; then the greater by content. Which was given first never decides.
        func standsOver(_ other: Snapshot) -> Bool {
            if expiry != other.expiry { return (expiry?.microseconds ?? .min) > (other.expiry?.microseconds ?? .min) }
            if state.lifeOrder != other.state.lifeOrder { return state.lifeOrder > other.state.lifeOrder }
            return other.contentKey.lexicographicallyPrecedes(contentKey)
        }

        /// Every field as one text, for the last tie-break.
        private var contentKey: [String] {
            [
                customerID ?? "", linkedToken ?? "", start.map { "\($0.microseconds)" } ?? "", isTest ? "1" : "0",
                latestOrderID ?? "",
            ]
                + items.map {
                    [
                        $0.productID, $0.expiry.map { "\($0.microseconds)" } ?? "", $0.renews ? "1" : "0",
                        $0.price ?? "",
                        $0.currency ?? "", $0.latestOrderID ?? "",
                    ].joined(separator: "\u{1}")
                }
        }
    }

    /// What a notification or a voided purchase says of a token.
    struct Notice: Hashable, Sendable {
        enum Event: Hashable, Sendable {
            /// A `subscriptionNotification`'s `notificationType`.
            case subscription(Int)
            /// A void: a `voidedpurchases` entry or a `voidedPurchaseNotification`.
            case voided(orderID: String?)
        }

        var token: String
        var at: Instant
        var event: Event
    }

    static let revoked = 12
    static let inGracePeriod = 6

    /// What became of a record that gave no transaction.
    enum Use: Equatable, Sendable {
        /// Accepted without a transaction of its own, and why.
        case noted
        /// Replaced by a later response for its token.
        case superseded
        /// Not usable, and why.
        case rejected(String)
    }

    /// Every response of the run, each at its place (the run's files in order, each file's
    /// responses in order), and for each token the place of the one that stands
    /// (`Snapshot.standsOver`); the others are superseded. Which was given first never decides.
    struct Standing {
        private(set) var snapshots: [Snapshot] = []
        private(set) var places: [String: Int] = [:]
        /// By place: whether the response stands (asked of every response, so not looked up).
        private var standing: [Bool] = []

        init(_ snapshots: [Snapshot]) {
            self.snapshots = snapshots
            places.reserveCapacity(snapshots.count)
            standing = Array(repeating: true, count: snapshots.count)
            // By place, not by element: a snapshot copied out of the list for each of millions
            // costs a retain and a release of each of its texts.
            for place in snapshots.indices {
                let token = snapshots[place].token
                guard let held = places[token] else {
                    places[token] = place
                    continue
                }
                if snapshots[held].standsOver(snapshots[place]) {
                    standing[place] = false
                } else {
                    standing[held] = false
                    places[token] = place
                }
            }
        }

        /// The response that stands for `token`, if any names it.
        func response(for token: String) -> Snapshot? { places[token].map { snapshots[$0] } }

        /// Whether the response at `place` is the one that stands for its token.
        func stands(_ place: Int) -> Bool { standing[place] }
    }

    /// What the run's notifications and voids say of each token, folded one notice at a time
    /// as they are read: the earliest revocation and the latest start of a grace period. Both
    /// are the same whatever order the notices come in.
    struct NoticeFold {
        var voids: [String: Instant] = [:]
        var graceStarts: [String: Instant] = [:]

        /// Weighs `notice` against the response that stands for its token; `.rejected` when no
        /// response names the token, since then no customer is named.
        mutating func add(_ notice: Notice, standing held: Snapshot?) -> Use {
            guard let held else {
                return .rejected(
                    "purchase token '\(Excerpt.of(notice.token))' is in no subscriptionsv2 response of the run, so no customer is named"
                )
            }
            switch notice.event {
            case .voided(let order):
                if let order, PlaySubscriptionRules.isEarlierOrder(order, than: held) { return .noted }
                voids[notice.token] = min(voids[notice.token] ?? notice.at, notice.at)
            case .subscription(PlaySubscriptionRules.revoked):
                voids[notice.token] = min(voids[notice.token] ?? notice.at, notice.at)
            case .subscription(PlaySubscriptionRules.inGracePeriod):
                graceStarts[notice.token] = max(graceStarts[notice.token] ?? notice.at, notice.at)
            case .subscription:
                break
            }
            return .noted
        }
    }

    /// Whether `order` is an order of `snapshot`'s token older than its latest: Google Play
    /// numbers a subscription's renewals `<first order>..0`, `..1`, and so on.
    static func isEarlierOrder(_ order: String, than snapshot: Snapshot) -> Bool {
        guard let latest = snapshot.items.compactMap(\.latestOrderID).first ?? snapshot.latestOrderID,
            order != latest
        else { return false }
        let (base, renewal) = renewalNumber(order)
        let (latestBase, latestRenewal) = renewalNumber(latest)
        guard base == latestBase, let latestRenewal else { return false }
        // The first order has no suffix: every renewal is later.
        return (renewal ?? -1) < latestRenewal
    }

    /// An order number's first order and renewal number: `GPA.1-2..3` is (`GPA.1-2`, 3).
    static func renewalNumber(_ order: String) -> (base: Substring, renewal: Int?) {
        guard let range = order.range(of: "..", options: .backwards), let number = Int(order[range.upperBound...])
        else { return (order[...], nil) }
        return (order[..<range.lowerBound], number)
    }

    /// The tokens linked into chains (`linkedPurchaseToken`), and whose customer each is.
    ///
    /// Each response links to at most one earlier token, so the chains form a forest whose
    /// roots are a token with no link (or no response in the run) or a loop. Both answers are
    /// worked out once for every token, by place: the chains joined in the kit's
    /// `IdentityForest`, which finds each loop, resolved from each chain's end down the links,
    /// then once from the deepest tokens up for the nearest named token below: a chain of a
    /// million upgrades costs a million steps, where following each token's links on its own
    /// took the square. Tokens are compared only where the answer
    /// turns on them (a loop's least token, the nearer of two tokens below one), so neither
    /// answer depends on the order the responses were given.
    struct Chains {
        private let standing: Standing
        /// By place: the first token of its chain, and the place of the token whose customer it
        /// takes. Places whose response does not stand have neither.
        private var roots: [String?]
        private var customers: [Int?]

        init(_ standing: Standing) {
            self.standing = standing
            let snapshots = standing.snapshots
            let count = snapshots.count
            let nodes = (0..<count).filter(standing.stands)
            // The place a token links to; a link to a token without a response ends the chain there.
            var link = [Int?](repeating: nil, count: count)
            for node in nodes { link[node] = snapshots[node].linkedToken.flatMap { standing.places[$0] } }
            let up = Up(nodes: nodes, snapshots: snapshots, link: link)
            let below = Self.nearestBelow(nodes: nodes, snapshots: snapshots, link: link, up: up)
            roots = up.root
            customers = (0..<count).map { up.named[$0] ?? below[$0]?.named }
        }

        /// Chains of responses given as one per token.
        init(_ snapshots: [String: Snapshot]) {
            self.init(Standing(snapshots.keys.sorted().compactMap { snapshots[$0] }))
        }

        /// The first token of the chain of the response at `place`: the last one reached
        /// through links, whether the run has its response or not. A chain that loops starts at
        /// the loop's least token.
        func root(at place: Int) -> String { roots[place] ?? standing.snapshots[place].token }

        /// The customer the response at `place` names, else the nearest earlier token's, else
        /// the nearest later one's (breadth first; ties by token).
        func customer(at place: Int) -> String? { customers[place].flatMap { standing.snapshots[$0].customerID } }

        /// `root(at:)` of the response that stands for `token`; `token` itself when none does.
        func root(of token: String) -> String { standing.places[token].map(root(at:)) ?? token }

        /// `customer(at:)` of the response that stands for `token`.
        func customer(of token: String) -> String? { standing.places[token].flatMap(customer(at:)) }

        /// What the links above give each place: its root, its depth below it (a loop's tokens
        /// are at depth 0), and the place of the nearest token at or above it that names a
        /// customer.
        ///
        /// The chains are joined in the kit's `IdentityForest`, one group a chain: the link
        /// that finds its two tokens already one group is the one that closes the chain's loop
        /// (a chain has at most one, as each token links to at most one other). Each chain's
        /// end, a token with no link, with a link to a token without a response, or a loop, is
        /// resolved first, and the rest from it down the links, each place once.
        private struct Up {
            var root: [String?]
            var depth: [Int]
            var named: [Int?]
            /// The places of each loop that names no customer.
            var namelessLoops: [[Int]] = []

            init(nodes: [Int], snapshots: [Snapshot], link: [Int?]) {
                let count = snapshots.count
                root = Array(repeating: nil, count: count)
                depth = Array(repeating: 0, count: count)
                named = Array(repeating: nil, count: count)
                var forest = IdentityForest(numbered: count)
                var ends: [Int] = []
                for node in nodes {
                    guard let next = link[node] else {
                        resolveEnd(node, snapshots)
                        ends.append(node)
                        continue
                    }
                    if forest.join(node, next) == nil {
                        ends += resolveLoop(closedBy: node, snapshots: snapshots, link: link)
                    }
                }
                resolveDown(from: ends, nodes: nodes, snapshots: snapshots, link: link)
            }

            /// A token whose link reaches no response: its own root at depth 0, or, linking to
            /// a token without a response in the run, that token's at depth 1.
            private mutating func resolveEnd(_ place: Int, _ snapshots: [Snapshot]) {
                let named = snapshots[place].customerID == nil ? nil : place
                self.named[place] = named
                if let missing = snapshots[place].linkedToken {
                    (root[place], depth[place]) = (missing, 1)
                } else {
                    (root[place], depth[place]) = (snapshots[place].token, 0)
                }
            }

            /// The loop whose last link leaves `last`: its places, each at depth 0 under the
            /// loop's least token, each taking the nearest named token at or above it (within
            /// two turns around the loop).
            private mutating func resolveLoop(closedBy last: Int, snapshots: [Snapshot], link: [Int?]) -> [Int] {
                // In link order: each place links to the next, and the last one to `last`.
                var loop = [last]
                while let next = link[loop[loop.count - 1]], next != last { loop.append(next) }
                let least = loop.lazy.map { snapshots[$0].token }.min() ?? snapshots[last].token
                var nearest: Int?
                for place in (loop + loop).reversed() {
                    if snapshots[place].customerID != nil { nearest = place }
                    named[place] = nearest
                }
                if nearest == nil { namelessLoops.append(loop) }
                for place in loop { (root[place], depth[place]) = (least, 0) }
                return loop
            }

            /// Every other place from the ends down the links: a place takes its link's root,
            /// one more than its depth, and its named token unless it names one itself. The
            /// places linking to each are counted out into one list, not a list made for each.
            private mutating func resolveDown(from ends: [Int], nodes: [Int], snapshots: [Snapshot], link: [Int?]) {
                var starts = [Int](repeating: 0, count: snapshots.count + 1)
                for node in nodes { if let next = link[node] { starts[next + 1] += 1 } }
                for place in starts.indices.dropFirst() { starts[place] += starts[place - 1] }
                var below = [Int](repeating: 0, count: starts[snapshots.count])
                var filled = starts
                for node in nodes {
                    guard let next = link[node] else { continue }
                    below[filled[next]] = node
                    filled[next] += 1
                }
                var pending = ends
                while let place = pending.popLast() {
                    for child in below[starts[place]..<starts[place + 1]] where root[child] == nil {
                        root[child] = root[place]
                        depth[child] = depth[place] + 1
                        named[child] = snapshots[child].customerID == nil ? named[place] : child
                        pending.append(child)
                    }
                }
            }
        }

        /// The nearest later token that names a customer: the fewest links away, then the
        /// lesser token at each step.
        private struct Below {
            var distance: Int
            var child: Int
            var named: Int

            func isNearer(than other: Below, _ snapshots: [Snapshot]) -> Bool {
                if distance != other.distance { return distance < other.distance }
                return snapshots[child].token < snapshots[other.child].token
            }
        }

        /// For each place, `Below`, worked out from the deepest tokens up (depths counted out
        /// into one list, not sorted, nor a list made per depth: a chain has as many depths as
        /// tokens).
        private static func nearestBelow(nodes: [Int], snapshots: [Snapshot], link: [Int?], up: Up) -> [Below?] {
            var below = [Below?](repeating: nil, count: snapshots.count)
            let deepest = nodes.reduce(0) { max($0, up.depth[$1]) }
            // `starts[k]`: where the nodes `k` levels above the deepest begin in `order`, each
            // level's in the nodes' order.
            var starts = [Int](repeating: 0, count: deepest + 2)
            for node in nodes where up.depth[node] > 0 { starts[deepest - up.depth[node] + 1] += 1 }
            for level in starts.indices.dropFirst() { starts[level] += starts[level - 1] }
            var order = [Int](repeating: 0, count: starts[deepest + 1])
            for node in nodes where up.depth[node] > 0 {
                let level = deepest - up.depth[node]
                order[starts[level]] = node
                starts[level] += 1
            }
            for child in order {
                guard let parent = link[child] else { continue }
                var offer: Below?
                if snapshots[child].customerID != nil {
                    offer = Below(distance: 1, child: child, named: child)
                } else if let held = below[child] {
                    offer = Below(distance: held.distance + 1, child: child, named: held.named)
                }
                guard let offer else { continue }
                if let held = below[parent], !offer.isNearer(than: held, snapshots) { continue }
                below[parent] = offer
            }
            // A loop naming no customer: every token of it takes the nearest below any of them.
            for loop in up.namelessLoops {
                var best: Below?
                for place in loop {
                    guard let held = below[place] else { continue }
                    let offer = Below(distance: held.distance, child: place, named: held.named)
                    if let kept = best, !offer.isNearer(than: kept, snapshots) { continue }
                    best = offer
                }
                for place in loop { below[place] = best }
            }
            return below
        }
    }
}
