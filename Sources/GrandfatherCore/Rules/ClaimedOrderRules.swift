import GrandfatherEngine

/// SPEC §9, claimed orders: what a Google Play order a customer claims (the `GPA.…` number on
/// the buyer's Google payments page, kept by the team) says of the customer, against the
/// store's own sales and earnings reports, which list every paid-app order and name no buyer.
///
/// An order that the reports show charged, that no other customer claims, is the store's
/// record of the purchase: it gives the customer's original purchase date (the instant of
/// its earliest charge, whichever report gives it: `SalesPopulation.Part`) from the source
/// `googlePlayOrder`, and the platform `android` as a store's. Every
/// other outcome is no evidence and raises its flag: an order not listed (not in the reports
/// given, or not the paid app's), refunded, or claimed by another customer too (evidence for
/// neither: one purchase has one buyer).
///
/// These rules have no SQL twin: `normalize` writes each customer with the outcome of its
/// claims (`customers.order_claims`) and the date they gave, so the warehouse script starts
/// after them, as it does after the assembly of customer facts.
enum ClaimedOrderRules {
    /// One claim: a customer (after identity merges) and the order number it gave.
    struct Claim: Hashable, Sendable {
        var customerID: String
        var order: String
    }

    /// One record per claimant, in id order, holding what its claims give; for the ledger,
    /// which assembles it with the customer's other records.
    static func customers(claiming claims: [Claim], orders: [String: SalesPopulation.Order]) -> [Customer] {
        var claimants: [String: Set<String>] = [:]
        for claim in claims { claimants[claim.order, default: []].insert(claim.customerID) }
        var outcomes: [String: (claims: OrderClaims, bought: Instant?)] = [:]
        for claim in Set(claims) {
            var outcome = outcomes[claim.customerID] ?? ([], nil)
            switch evidence(of: claim.order, claimants: claimants[claim.order]?.count ?? 0, orders: orders) {
            case .bought(let instant):
                // The first purchase the claims show.
                if let instant { outcome.bought = min(instant, outcome.bought ?? instant) }
            case .noEvidence(let why): outcome.claims.insert(why)
            }
            outcomes[claim.customerID] = outcome
        }
        return outcomes.keys.sorted().map { id in
            let outcome = outcomes[id] ?? ([], nil)
            var customer = Customer(id: id, platform: .android, originalPurchaseDate: outcome.bought)
                .read(
                    from: .googlePlayOrder,
                    facts: outcome.bought == nil ? [.platform] : [.platform, .originalPurchaseDate])
            customer.provenance.platformIsAStore = true
            customer.orderClaims = outcome.claims
            return customer
        }
    }

    /// What one claimed order says.
    enum Evidence: Equatable {
        /// Bought, at the charge's instant (`nil` when the reports give only a day that holds
        /// the cutover: found, but no date to place it).
        case bought(Instant?)
        /// No evidence, and why.
        case noEvidence(OrderClaims)
    }

    static func evidence(of order: String, claimants: Int, orders: [String: SalesPopulation.Order]) -> Evidence {
        if claimants > 1 { return .noEvidence(.claimedTwice) }
        guard let found = orders[order] else { return .noEvidence(.notFound) }
        if found.refunded { return .noEvidence(.refunded) }
        guard found.isCharged else { return .noEvidence(.notFound) }
        return .bought(found.charged)
    }
}

extension OrderClaims {
    /// Each outcome's code in `customers.order_claims`.
    static let codes: [(OrderClaims, String)] = [
        (.notFound, "not_found"), (.refunded, "refunded"), (.claimedTwice, "claimed_twice"),
    ]

    /// As `customers.order_claims` holds it: the outcomes' codes, space-separated; empty for none.
    var code: String { Self.codes.filter { contains($0.0) }.map(\.1).joined(separator: " ") }

    /// The outcomes a `customers.order_claims` cell names; `nil` when it names one not known.
    init?(code: String) {
        var claims: OrderClaims = []
        for word in code.split(separator: " ") {
            guard let known = Self.codes.first(where: { $0.1 == word }) else { return nil }
            claims.insert(known.0)
        }
        self = claims
    }
}

extension Flag {
    /// The outcome of a claimed order the flag stands for; empty for the other flags.
    var orderClaim: OrderClaims {
        switch self {
        case .orderNotFound: return .notFound
        case .orderRefunded: return .refunded
        case .orderClaimedTwice: return .claimedTwice
        default: return []
        }
    }
}
