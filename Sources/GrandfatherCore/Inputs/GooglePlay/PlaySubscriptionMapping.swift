import GrandfatherEngine

/// A standing `subscriptionsv2` response mapped onto SPEC §2's transactions, as
/// `PlaySubscriptionRules` (in `Rules/`) weighs it against the run's other responses and
/// notices: its chain's first token is its subscription, its chain's customer its own, the
/// notices' earliest void its revocation and the grace period's start the end of its paid
/// period (docs/GooglePlay.md, "Play subscriptions").
enum PlaySubscriptionMapping {
    /// A transaction mapped from a response, with its texts.
    struct Mapped: Sendable {
        var record: MappedTransaction
        var texts: Texts
    }

    /// A transaction's texts as the response holds them: lent to the ledger in place, not
    /// copied into byte arrays of their own (six allocations a transaction).
    struct Texts: TransactionTexts, Sendable {
        var transactionID: String
        var originalTransactionID: String
        var customerID: String
        var productID: String
        var price: String?
        var currency: String?

        func read<Result>(_ text: TransactionText, _ body: (Span<UInt8>) -> Result) -> Result? {
            switch text {
            case .transactionID: body(transactionID.utf8.span)
            case .originalTransactionID: body(originalTransactionID.utf8.span)
            case .customerID: body(customerID.utf8.span)
            case .productID: body(productID.utf8.span)
            case .price: price.map { body($0.utf8.span) }
            case .currency: currency.map { body($0.utf8.span) }
            }
        }
    }

    /// The response's transactions (one per line item), each handed to `body` (no list made
    /// for each of millions of responses); what became of it instead, if anything; and the
    /// customer they were given when no token of their chain names one.
    /// - Parameter productTypes: the policy's `products[id].type`, which outranks the plan.
    static func transactions(
        at place: Int, of standing: PlaySubscriptionRules.Standing, chains: PlaySubscriptionRules.Chains,
        notices: PlaySubscriptionRules.NoticeFold, productTypes: [String: ProductType], _ body: (Mapped) -> Void
    ) -> (use: PlaySubscriptionRules.Use?, unlinked: String?) {
        let snapshot = standing.snapshots[place]
        guard standing.stands(place) else { return (.superseded, nil) }
        guard !snapshot.state.isPending else { return (.noted, nil) }
        guard let start = snapshot.start else { return (.rejected("startTime is missing"), nil) }
        guard !snapshot.items.isEmpty else { return (.rejected("lineItems is empty"), nil) }
        let root = chains.root(at: place)
        var unlinked: String?
        let customer: String
        if let named = chains.customer(at: place) {
            customer = named
        } else {
            customer = AppStoreLinker.unlinkedPrefix + root
            unlinked = customer
        }
        let revoked = notices.voids.isEmpty ? nil : notices.voids[snapshot.token]
        let graceBegan = notices.graceStarts.isEmpty ? nil : notices.graceStarts[snapshot.token]
        for item in snapshot.items {
            var record = MappedTransaction(
                productType: item.renews ? .autoRenewable : .nonRenewing, typeSource: .playSubscription,
                purchaseDate: start, expiresDate: item.expiry, revocationDate: revoked,
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
                if let graceBegan, graceBegan >= start, graceBegan < ends { record.expiresDate = graceBegan }
            }
            let texts = Texts(
                transactionID: snapshot.items.count == 1 ? snapshot.token : "\(snapshot.token):\(item.productID)",
                originalTransactionID: root, customerID: customer, productID: item.productID, price: item.price,
                currency: item.currency)
            body(Mapped(record: record, texts: texts))
        }
        return (nil, unlinked)
    }
}
