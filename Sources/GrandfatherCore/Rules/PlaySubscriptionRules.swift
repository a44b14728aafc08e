import GrandfatherEngine

/// Google Play subscriptions mapped onto SPEC §2's transactions (docs/GooglePlay.md, "Play
/// subscriptions"): what the run's `subscriptionsv2` responses, real-time developer
/// notifications and voided purchases say together of each purchase token.
///
/// - **One transaction per purchase token** (per line item, when a response has several):
///   a token is one subscription purchase across its renewals. Of several responses for one
///   token, the one whose items expire latest stands, and of those the one given last; the
///   others are superseded (accepted, not used).
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
    }

    /// What a notification or a voided purchase says of a token.
    struct Notice: Equatable, Sendable {
        enum Event: Equatable, Sendable {
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

    /// Weighs every response and notice of the run together.
    /// - Parameter productTypes: the policy's `products[id].type`, which outranks the plan.
    static func transactions(
        snapshots: [(place: Place, snapshot: Snapshot)], notices: [(place: Place, notice: Notice)],
        productTypes: [String: ProductType]
    ) -> Outcome {
        var outcome = Outcome()
        var standing: [String: (place: Place, snapshot: Snapshot)] = [:]
        for entry in snapshots {
            let token = entry.snapshot.token
            guard let held = standing[token] else {
                standing[token] = entry
                continue
            }
            // The later response stands unless the held one's items expire later.
            let heldExpiresLater =
                switch (held.snapshot.expiry, entry.snapshot.expiry) {
                case (let kept?, let given?): kept > given
                case (.some, nil): true
                default: false
                }
            if heldExpiresLater {
                outcome.uses[entry.place] = .superseded
            } else {
                outcome.uses[held.place] = .superseded
                standing[token] = entry
            }
        }

        var voids: [String: Instant] = [:]
        var graceStarts: [String: Instant] = [:]
        for (place, notice) in notices {
            guard let held = standing[notice.token]?.snapshot else {
                outcome.uses[place] = .rejected(
                    "purchase token '\(Excerpt.of(notice.token))' is in no subscriptionsv2 response of the run, so no customer is named"
                )
                continue
            }
            outcome.uses[place] = .noted
            switch notice.event {
            case .voided(let order):
                if let order, isEarlierOrder(order, than: held) { continue }
                voids[notice.token] = min(voids[notice.token] ?? notice.at, notice.at)
            case .subscription(Self.revoked):
                voids[notice.token] = min(voids[notice.token] ?? notice.at, notice.at)
            case .subscription(Self.inGracePeriod):
                graceStarts[notice.token] = max(graceStarts[notice.token] ?? notice.at, notice.at)
            case .subscription:
                break
            }
        }

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
    struct Chains {
        let snapshots: [String: Snapshot]
        /// The tokens that link to each token.
        let linkedFrom: [String: [String]]

        init(_ snapshots: [String: Snapshot]) {
            self.snapshots = snapshots
            var linkedFrom: [String: [String]] = [:]
            for (token, snapshot) in snapshots {
                if let linked = snapshot.linkedToken { linkedFrom[linked, default: []].append(token) }
            }
            self.linkedFrom = linkedFrom.mapValues { $0.sorted() }
        }

        /// The first token of `token`'s chain: the last one reached through links, whether the
        /// run has its response or not. A chain that loops stops where it would repeat.
        func root(of token: String) -> String {
            var current = token
            var seen: Set<String> = [token]
            while let linked = snapshots[current]?.linkedToken, seen.insert(linked).inserted {
                current = linked
            }
            return current
        }

        /// The customer `token`'s response names, else the nearest earlier token's, else the
        /// nearest later one's (breadth first; ties by token).
        func customer(of token: String) -> String? {
            if let own = snapshots[token]?.customerID { return own }
            var current = token
            var seen: Set<String> = [token]
            while let linked = snapshots[current]?.linkedToken, seen.insert(linked).inserted {
                if let named = snapshots[linked]?.customerID { return named }
                current = linked
            }
            var level = linkedFrom[token] ?? []
            while !level.isEmpty {
                if let named = level.lazy.compactMap({ self.snapshots[$0]?.customerID }).first { return named }
                level = level.flatMap { linkedFrom[$0] ?? [] }.filter { seen.insert($0).inserted }
            }
            return nil
        }
    }
}
