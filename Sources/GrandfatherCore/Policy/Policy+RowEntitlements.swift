extension Policy {
    /// The policy as a run classifies with it once its inputs are read: a product the policy
    /// does not list grants what its rows say it unlocks (`byProduct`, the ingest stage's
    /// `RowEntitlements`), in code-point order, instead of SPEC §8.12's fallback. Issue 16:
    /// "the policy's `products` map decides when it lists the product; otherwise the row's
    /// `entitlement_identifiers`; otherwise SPEC §8.12's fallback". A product the policy
    /// lists keeps the policy's word; the file's text and digest stay the policy's as given.
    func granting(_ byProduct: [String: Set<String>]) -> Policy {
        var policy = self
        for (product, names) in byProduct where products[product] == nil {
            policy.products[product] = ProductRule(entitlements: names.sorted { $0.codePointPrecedes($1) })
        }
        return policy
    }
}

extension AuditSettings {
    /// These settings with `Policy.granting(_:)`'s policy.
    func granting(_ rows: [String: Set<String>]) -> AuditSettings {
        var settings = self
        settings.policy = policy.granting(rows)
        return settings
    }
}
