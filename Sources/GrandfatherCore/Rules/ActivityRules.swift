import GrandfatherEngine

/// What of a customer's transactions counts, and which of its auto-renewables is the latest:
/// the two rules every transaction meets on its way into a customer's activity
/// (`ShardedLedger.add`, `CustomerActivity.fold`), over plain values.
enum ActivityRules {
    /// Whether a transaction counts for its customer (SPEC §8.8): a sandbox transaction counts
    /// for nobody. It is accounted (a sandbox row of its file), never folded into a customer.
    static func counts(_ environment: Environment) -> Bool { environment == .production }

    /// Where an auto-renewable comes against another.
    enum Order: Equatable, Sendable { case earlier, same, later }

    /// The rule's first step alone: the later purchase; `nil` on the same instant, where the
    /// ids and states decide. Nearly every pair is told apart here, without their ids.
    static func order(purchased: Instant, against keptPurchased: Instant) -> Order? {
        guard purchased != keptPurchased else { return nil }
        return keptPurchased < purchased ? .later : .earlier
    }

    /// Where the auto-renewable purchased at `purchased`, with transaction id `id` and renewal
    /// state `state`, comes against the latest one kept (SPEC §8.19): the later purchase; on
    /// the same instant the greater transaction id (its UTF-8 bytes); then the greater renewal
    /// state text, none the least. `.same` is a copy of the kept one: whichever copy is read
    /// first never decides which state stands.
    static func order(
        purchased: Instant, id: some Collection<UInt8>, state: RenewalState?,
        against keptPurchased: Instant, id keptID: some Collection<UInt8>, state keptState: RenewalState?
    ) -> Order {
        if let order = order(purchased: purchased, against: keptPurchased) { return order }
        if !keptID.elementsEqual(id) { return keptID.lexicographicallyPrecedes(id) ? .later : .earlier }
        let kept = (keptState?.rawValue ?? "").utf8
        let candidate = (state?.rawValue ?? "").utf8
        if kept.elementsEqual(candidate) { return .same }
        return kept.lexicographicallyPrecedes(candidate) ? .later : .earlier
    }
}
