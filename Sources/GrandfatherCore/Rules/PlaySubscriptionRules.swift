import GrandfatherEngine

/// Google Play subscriptions mapped onto SPEC §2's transactions (docs/GooglePlay.md, "Play
/// subscriptions"): what the run's `subscriptionsv2` responses, real-time developer
/// notifications and voided purchases say together of each purchase token.
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
    /// Where a record was read: its input's place among the run's, and its own among the
    /// file's records (several may share a line).
    struct Place: Hashable, Comparable, Sendable {
        var file: Int
        var record: Int

        static func < (lhs: Place, rhs: Place) -> Bool { (lhs.file, lhs.record) < (rhs.file, rhs.record) }
    }

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

    /// A transaction, where it was read and its texts.
    struct Mapped: Sendable {
        var place: Place
        var record: MappedTransaction
        var texts: OwnedTransactionTexts
    }

    struct Outcome: Sendable {
        /// In the order the responses were given.
        var transactions: [Mapped] = []
        /// What became of every other record, by place.
        var uses: [Place: Use] = [:]
        var unlinkedCustomers: Set<String> = []
    }

    /// Of several responses for one token, the one that stands (`Snapshot.standsOver`), and
    /// the places of the others, superseded.
    struct Standing {
        var responses: [String: (place: Place, snapshot: Snapshot)] = [:]
        var superseded: [Place] = []

        init(_ snapshots: [(place: Place, snapshot: Snapshot)]) {
            for entry in snapshots {
                let token = entry.snapshot.token
                guard let held = responses[token] else {
                    responses[token] = entry
                    continue
                }
                if held.snapshot.standsOver(entry.snapshot) {
                    superseded.append(entry.place)
                } else {
                    superseded.append(held.place)
                    responses[token] = entry
                }
            }
        }
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

    /// The transactions of the responses that stand, with what the notices say of their tokens.
    /// - Parameter productTypes: the policy's `products[id].type`, which outranks the plan.
    static func transactions(standing weighed: Standing, notices: NoticeFold, productTypes: [String: ProductType])
        -> Outcome
    {
        var outcome = Outcome()
        for place in weighed.superseded { outcome.uses[place] = .superseded }
        let standing = weighed.responses
        let voids = notices.voids
        let graceStarts = notices.graceStarts
        let chains = Chains(standing.mapValues(\.snapshot))
        for (place, snapshot) in standing.values.sorted(by: { $0.place < $1.place }) {
            guard !snapshot.state.isPending else {
                outcome.uses[place] = .noted
                continue
            }
            guard let start = snapshot.start else {
                outcome.uses[place] = .rejected("startTime is missing")
                continue
            }
            let root = chains.root(of: snapshot.token)
            let customer: String
            if let named = chains.customer(of: snapshot.token) {
                customer = named
            } else {
                customer = AppStoreLinker.unlinkedPrefix + root
                outcome.unlinkedCustomers.insert(customer)
            }
            for item in snapshot.items {
                var record = MappedTransaction(
                    productType: item.renews ? .autoRenewable : .nonRenewing, typeSource: .playSubscription,
                    purchaseDate: start, expiresDate: item.expiry, revocationDate: voids[snapshot.token],
                    ownership: .purchased, environment: snapshot.isTest ? .sandbox : .production,
                    renewalState: snapshot.state.renewalState, gracePeriodExpiresDate: nil, storePlatform: .android,
                    isPromotional: false, provenance: TransactionProvenance(shape: .playSubscription))
                if let type = productTypes[item.productID] {
                    record.productType = type
                    record.typeSource = .policy
                }
                if record.productType == .nonRenewing { record.termEnds = item.expiry }
                if snapshot.state == .inGracePeriod, let ends = item.expiry {
                    record.gracePeriodExpiresDate = ends
                    if let began = graceStarts[snapshot.token], began >= start, began < ends {
                        record.expiresDate = began
                    }
                }
                var texts = OwnedTransactionTexts()
                texts[.transactionID] =
                    snapshot.items.count == 1 ? snapshot.token : "\(snapshot.token):\(item.productID)"
                texts[.originalTransactionID] = root
                texts[.customerID] = customer
                texts[.productID] = item.productID
                texts[.price] = item.price
                texts[.currency] = item.currency
                outcome.transactions.append(Mapped(place: place, record: record, texts: texts))
            }
            if snapshot.items.isEmpty { outcome.uses[place] = .rejected("lineItems is empty") }
        }
        return outcome
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
    /// worked out once for every token, in one walk up the links and one pass down them by
    /// depth: a chain of a million upgrades costs a million steps, where following each token's
    /// links on its own took the square. Neither answer depends on the order the responses
    /// were given.
    struct Chains {
        private var roots: [String: String] = [:]
        private var customers: [String: String] = [:]

        init(_ snapshots: [String: Snapshot]) {
            let tokens = snapshots.keys.sorted()
            var place: [String: Int] = [:]
            place.reserveCapacity(tokens.count)
            for (index, token) in tokens.enumerated() { place[token] = index }
            let own = tokens.map { snapshots[$0]?.customerID }
            // The place a token links to; a link to a token without a response ends the chain there.
            let link = tokens.map { snapshots[$0]?.linkedToken.flatMap { place[$0] } }
            var up = Up(count: tokens.count)
            for start in tokens.indices where up.root[start] == nil {
                up.walk(from: start, tokens: tokens, own: own, link: link, snapshots: snapshots)
            }
            let down = Self.nearestBelow(tokens: tokens, own: own, link: link, up: up)
            roots.reserveCapacity(tokens.count)
            for (index, token) in tokens.enumerated() {
                roots[token] = up.root[index]
                if let customer = up.customer[index] ?? down[index]?.customer { customers[token] = customer }
            }
        }

        /// The first token of `token`'s chain: the last one reached through links, whether the
        /// run has its response or not. A chain that loops starts at the loop's least token.
        func root(of token: String) -> String { roots[token] ?? token }

        /// The customer `token`'s response names, else the nearest earlier token's, else the
        /// nearest later one's (breadth first; ties by token).
        func customer(of token: String) -> String? { customers[token] }

        /// What the walk up the links gives each token: its root, its depth below it (a loop's
        /// tokens are at depth 0), and the customer of the nearest token at or above it.
        private struct Up {
            var root: [String?]
            var depth: [Int]
            var customer: [String?]
            /// The tokens of each loop that names no customer.
            var namelessLoops: [[Int]] = []

            init(count: Int) {
                root = Array(repeating: nil, count: count)
                depth = Array(repeating: 0, count: count)
                customer = Array(repeating: nil, count: count)
            }

            /// Resolves every token from `start` up to the first one resolved already, the end
            /// of its chain, or a loop.
            mutating func walk(
                from start: Int, tokens: [String], own: [String?], link: [Int?], snapshots: [String: Snapshot]
            ) {
                var path: [Int] = []
                var onPath: [Int: Int] = [:]
                var current = start
                // What the token above the path's last one gives it.
                var above: (root: String, depth: Int, customer: String?)
                while true {
                    onPath[current] = path.count
                    path.append(current)
                    guard let next = link[current] else {
                        let missing = snapshots[tokens[current]]?.linkedToken
                        if let missing {
                            above = (missing, 0, nil)
                        } else {
                            // The end of its chain: its own root, at depth 0.
                            path.removeLast()
                            root[current] = tokens[current]
                            customer[current] = own[current]
                            above = (tokens[current], 0, own[current])
                        }
                        break
                    }
                    if let resolved = root[next] {
                        above = (resolved, depth[next], customer[next])
                        break
                    }
                    if let loopStart = onPath[next] {
                        let loop = Array(path[loopStart...])
                        path.removeSubrange(loopStart...)
                        let least = tokens[loop.min() ?? next]
                        // Around a loop, the nearest named token is found within two turns.
                        var nearest: String?
                        for index in (loop + loop).reversed() {
                            nearest = own[index] ?? nearest
                            customer[index] = nearest
                        }
                        if nearest == nil { namelessLoops.append(loop) }
                        for index in loop {
                            root[index] = least
                            depth[index] = 0
                        }
                        above = (least, 0, customer[loop[0]])
                        break
                    }
                    current = next
                }
                for index in path.reversed() {
                    root[index] = above.root
                    depth[index] = above.depth + 1
                    customer[index] = own[index] ?? above.customer
                    above = (above.root, above.depth + 1, customer[index])
                }
            }
        }

        /// For each token, the nearest later token that names a customer (the fewest links
        /// away, then the least token at each step), worked out from the deepest tokens up.
        private static func nearestBelow(tokens: [String], own: [String?], link: [Int?], up: Up)
            -> [(distance: Int, child: Int, customer: String)?]
        {
            typealias Nearest = (distance: Int, child: Int, customer: String)
            var below: [Nearest?] = Array(repeating: nil, count: tokens.count)
            let deepestFirst = tokens.indices.filter { up.depth[$0] > 0 }.sorted { up.depth[$0] > up.depth[$1] }
            for child in deepestFirst {
                guard let parent = link[child] else { continue }
                var offer: Nearest?
                if let named = own[child] {
                    offer = (1, child, named)
                } else if let held = below[child] {
                    offer = (held.distance + 1, child, held.customer)
                }
                guard let offer else { continue }
                if let held = below[parent], (held.distance, held.child) <= (offer.distance, offer.child) { continue }
                below[parent] = offer
            }
            // A loop naming no customer: every token of it takes the nearest below any of them.
            for loop in up.namelessLoops {
                var best: Nearest?
                for index in loop {
                    guard let held = below[index] else { continue }
                    if let kept = best, (kept.distance, kept.child) <= (held.distance, index) { continue }
                    best = (held.distance, index, held.customer)
                }
                for index in loop { below[index] = best }
            }
            return below
        }
    }
}
