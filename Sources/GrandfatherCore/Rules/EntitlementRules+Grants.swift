import GrandfatherEngine

/// A current transaction as the grant rule reads it: what it grants through, and what orders
/// and tells apart two grants.
protocol GrantingTransaction {
    var transactionID: CompactText { get }
    var productID: String { get }
    /// Current only through a billing grace period (SPEC §8.11).
    var throughGrace: Bool { get }
    var familyShared: Bool { get }
    /// A promotional grant (SPEC §9): granted, never bought.
    var promotional: Bool { get }
    /// When the grant ends; `nil` for a non-consumable.
    var endsAt: Instant? { get }
}

extension ProductEntitlements {
    /// The grant rule (SPEC §8.13, §8.9; §9, Entitlement source): calls `body` with what a
    /// customer of `customerClass` holds, given its `current` transactions. An excluded
    /// (sandbox) customer holds nothing; a grandfathered one holds the policy's grandfathered
    /// entitlements; every current transaction grants its product's entitlements, through
    /// the source `EntitlementSource.of` names. Each grant comes once, in `EntitlementGrant`
    /// order (entitlement, source, transaction id, expiry); of versions of one id that make
    /// the same grant (a conflicting duplicate), the one with the smaller product stands for
    /// it, then the earlier, so that input order never shows.
    ///
    /// `grantingNothing` is called, before `body`, with the index of each current transaction
    /// whose product grants no entitlement (it still decides the class, SPEC §8.11).
    ///
    /// Laid out in scratch space by positions: no array and no string per customer, since every
    /// report and the snapshot read the grants of a million customers.
    /// Its SQL twin is `AuditRules.grantsSQL` (EntitlementRules+SQL.swift).
    func grants<Current: RandomAccessCollection, Result>(
        of customerClass: CustomerClass, current: Current,
        _ body: (ScratchElements<GrantPlace>) throws -> Result, grantingNothing: (Int) -> Void = { _ in }
    ) rethrows -> Result where Current.Element: GrantingTransaction, Current.Index == Int {
        let holds = customerClass != .excluded
        let grandfathered = customerClass == .grandfathered ? self.grandfathered : 0..<0
        let most = holds ? grandfathered.count + current.count * widest : 0
        return try ScratchList<GrantPlace>.with(capacity: most) { places in
            if holds {
                for name in grandfathered {
                    places.append(GrantPlace(name: name, source: .grandfathered, transaction: nil))
                }
                for index in current.indices {
                    let source = EntitlementSource.of(
                        throughGrace: current[index].throughGrace, familyShared: current[index].familyShared,
                        promotional: current[index].promotional)
                    let names = of(product: current[index].productID)
                    if names.isEmpty { grantingNothing(index) }
                    for name in names { places.append(GrantPlace(name: name, source: source, transaction: index)) }
                }
                places.sortFoldingRepeats(by: { precedes($0, $1, current) }) { kept, repeated in
                    keep(&kept, orRepeated: repeated, current)
                }
            }
            return try body(places.elements)
        }
    }

    /// Of two places that stand for one grant, keeps the one whose transaction has the smaller
    /// product (then the earlier transaction).
    private func keep<Current: RandomAccessCollection>(
        _ kept: inout GrantPlace, orRepeated repeated: GrantPlace, _ current: Current
    ) where Current.Element: GrantingTransaction, Current.Index == Int {
        guard let offered = repeated.transaction, let held = kept.transaction else { return }
        let (offeredProduct, heldProduct) = (current[offered].productID, current[held].productID)
        if offeredProduct.codePointPrecedes(heldProduct) || offeredProduct == heldProduct && offered < held {
            kept.transaction = offered
        }
    }

    /// `EntitlementGrant`'s order (entitlement, source, transaction id, expiry) on places.
    private func precedes<Current: RandomAccessCollection>(
        _ lhs: GrantPlace, _ rhs: GrantPlace, _ current: Current
    ) -> Bool where Current.Element: GrantingTransaction, Current.Index == Int {
        let (left, right) = (rank[lhs.name], rank[rhs.name])
        if left != right { return left < right }
        if lhs.source != rhs.source { return lhs.source.rawValue.codePointPrecedes(rhs.source.rawValue) }
        // A grandfathered grant has no transaction: its id counts as empty, its expiry as earliest.
        guard let leftIndex = lhs.transaction else { return rhs.transaction != nil }
        guard let rightIndex = rhs.transaction else { return false }
        let leftID = current[leftIndex].transactionID
        let rightID = current[rightIndex].transactionID
        if leftID != rightID { return leftID.precedes(rightID) }
        let leftEnd = current[leftIndex].endsAt
        let rightEnd = current[rightIndex].endsAt
        return (leftEnd?.microseconds ?? .min) < (rightEnd?.microseconds ?? .min)
    }
}
