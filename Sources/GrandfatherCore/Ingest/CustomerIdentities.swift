/// Which customer ids name one customer: what a source of identities (RevenueCat's webhook
/// events) says, applied to every record of the run before it is folded, so that a
/// customer's facts and transactions under any of its ids land on one customer.
///
/// Merges are applied in the order the source gives them (the events' own order); each joins
/// two ids' customers under the survivor's, so that an id merged onto one that is itself
/// merged later ends with the last survivor.
struct CustomerIdentities: Sendable, Equatable {
    /// Why an id stopped naming a customer of its own.
    enum Merge: String, Sendable, CaseIterable {
        /// RevenueCat aliased it to the customer's `original_app_user_id`.
        case alias
        /// RevenueCat transferred its purchases to another id (a restore on another account).
        case transfer
    }

    /// One merged id: the customer whose records it names now, and how it got there.
    struct Merged: Sendable, Equatable {
        var id: String
        var customerID: String
        var how: Merge
    }

    /// Each merged id's survivor at the time of its merge; followed to the end, its customer.
    private var survivor: [String: String] = [:]
    private var how: [String: Merge] = [:]

    var isEmpty: Bool { survivor.isEmpty }

    /// Files `id`'s customer under `onto`'s; nothing when they are one customer already.
    mutating func merge(_ id: String, onto other: String, how kind: Merge) {
        let from = customerID(of: id)
        let to = customerID(of: other)
        guard from != to else { return }
        survivor[from] = to
        how[from] = kind
    }

    /// The id the records of `id` are filed under: `id` itself unless it was merged.
    func customerID(of id: String) -> String {
        var current = id
        while let next = survivor[current] { current = next }
        return current
    }

    /// Every merged id with its customer, resolved: what a reader of records looks ids up in.
    var resolved: [String: String] {
        var map: [String: String] = [:]
        for id in survivor.keys { map[id] = customerID(of: id) }
        return map
    }

    /// Every merged id with its customer and how, in id code-point order (SPEC §8.25).
    var merged: [Merged] {
        survivor.keys.sorted { $0.codePointPrecedes($1) }.map { id in
            Merged(id: id, customerID: customerID(of: id), how: how[id] ?? .alias)
        }
    }
}
