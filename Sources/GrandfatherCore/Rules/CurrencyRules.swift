import GrandfatherEngine

/// What makes a transaction current as of the run (SPEC §4, §8.11, §8.12).
extension AuditRules {
    /// How a current transaction grants: until when, and whether only through a billing
    /// grace period.
    struct Currency: Equatable {
        /// Expiry, grace end or purchase + term; `nil` for a non-consumable, which never ends.
        var endsAt: Instant?
        var throughGrace: Bool
    }

    /// The currency of one production transaction, `nil` when it is not current:
    /// - a revoked transaction never is (SPEC §8.11), nor a consumable;
    /// - a non-consumable always is;
    /// - a non-renewing one until its purchase plus its product's term (SPEC §3): the policy's
    ///   `term_days` for the product; else the term the run's evidence gives its product
    ///   (SPEC §9, Product facts: an export's `product_duration`), ending at `termEnds`; else
    ///   the policy's `non_renewing_term_days`;
    /// - an auto-renewable one until it expires, or, in a billing grace period, until the
    ///   grace period does (SPEC §8.11).
    ///
    /// A promotional grant (SPEC §9), whatever its product's type, is current until its
    /// `expires` when it has one, and for good when it has none.
    ///
    /// `product` gives the product id; read only for a non-renewing transaction's term.
    func currency(
        of productType: ProductType, revoked: Bool, purchased: Instant, expires: Instant?,
        renewalState: RenewalState?, graceExpires: Instant?, promotional: Bool = false, termEnds: Instant? = nil,
        product: () -> String
    ) -> Currency? {
        guard !revoked else { return nil }
        if promotional {
            return expires.map { $0 > asOf } ?? true ? Currency(endsAt: expires, throughGrace: false) : nil
        }
        switch productType {
        case .consumable:
            return nil
        case .nonConsumable:
            return Currency(endsAt: nil, throughGrace: false)
        case .nonRenewing:
            let id = product()
            var end = purchased.adding(seconds: policy.termSeconds(forProduct: id))
            if let termEnds, policy.products[id]?.termDays == nil { end = termEnds }
            return end > asOf ? Currency(endsAt: end, throughGrace: false) : nil
        case .autoRenewable:
            if let expires, expires > asOf { return Currency(endsAt: expires, throughGrace: false) }
            if renewalState == .inGracePeriod, let graceExpires, graceExpires > asOf {
                return Currency(endsAt: graceExpires, throughGrace: true)
            }
            return nil
        }
    }

    /// Expiry before purchase, or a purchase or revocation after as-of (SPEC §8.24).
    func hasImpossibleDates(purchased: Instant, expires: Instant?, revoked: Instant?) -> Bool {
        if let expires, expires < purchased { return true }
        if purchased > asOf { return true }
        if let revoked, revoked > asOf { return true }
        return false
    }
}
