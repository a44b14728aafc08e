/// Which customer ids name one customer: what a source of identities (RevenueCat's webhook
/// events) says, applied to every record of the run before it is folded, so that a
/// customer's facts and transactions under any of its ids land on one customer.
///
/// Merges are applied in the order the source gives them (the events' own order). Each joins
/// two ids' customers under the survivor's, so that an id merged onto one that is itself
/// merged later ends with the last survivor. A transfer between two ids of one customer
/// (anon → user, then user → anon) moves the customer to the id the purchases went to last:
/// the id they left no longer names it.
///
/// Kept in the kit's `IdentityForest`, each group carrying the id that names its customer: a
/// merge, and a look-up, costs the logarithm of the ids at most, so a chain of a hundred
/// thousand merges is read in a blink, where following each id's survivor one step at a time
/// took the square.
struct CustomerIdentities: Sendable {
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

    /// Every id a merge named, grouped by customer.
    private var forest = IdentityForest()
    /// A root's customer: the place of the id that names every id of its group.
    private var name: [Int] = []
    /// How each merged id stopped naming a customer of its own; `nil` for an id that names one.
    private var how: [Merge?] = []
    private var mergedCount = 0

    /// Whether no id was merged onto another.
    var isEmpty: Bool { mergedCount == 0 }

    /// Files `id`'s customer under `other`'s; nothing when they are one customer already,
    /// unless `kind` is a transfer to an id that does not name that customer: the customer is
    /// then named by `other`, where the purchases went.
    mutating func merge(_ id: String, onto other: String, how kind: Merge) {
        let from = forest.root(place(of: id))
        let destination = place(of: other)
        let to = forest.root(destination)
        guard let joined = forest.join(from, to) else {
            guard kind == .transfer, name[to] != destination else { return }
            how[name[to]] = .transfer
            how[destination] = nil
            name[to] = destination
            return
        }
        how[name[from]] = kind
        mergedCount += 1
        name[joined.survivor] = name[to]
    }

    /// The id the records of `id` are filed under: `id` itself unless it was merged.
    func customerID(of id: String) -> String {
        guard let place = forest.existingPlace(of: id) else { return id }
        return forest.ids[name[forest.rootOf(place)]]
    }

    /// Every merged id with its customer, resolved: what a reader of records looks ids up in.
    var resolved: [String: String] {
        var map: [String: String] = [:]
        map.reserveCapacity(mergedCount)
        forEachMerged { id, customer, _ in map[id] = customer }
        return map
    }

    /// Every merged id with its customer and how, in id code-point order (SPEC §8.25).
    var merged: [Merged] {
        var list: [Merged] = []
        list.reserveCapacity(mergedCount)
        forEachMerged { id, customer, how in list.append(Merged(id: id, customerID: customer, how: how)) }
        return list.sorted { $0.id.codePointPrecedes($1.id) }
    }

    private func forEachMerged(_ body: (String, String, Merge) -> Void) {
        for place in forest.ids.indices {
            guard let kind = how[place] else { continue }
            body(forest.ids[place], forest.ids[name[forest.rootOf(place)]], kind)
        }
    }

    /// `id`'s place, made for an id not seen before.
    private mutating func place(of id: String) -> Int {
        let place = forest.place(of: id)
        if place == name.count {
            name.append(place)
            how.append(nil)
        }
        return place
    }
}

extension CustomerIdentities: Equatable {
    /// Two sets of identities are equal when they merge the same ids onto the same customers,
    /// the same way, whatever order the merges came in.
    static func == (lhs: CustomerIdentities, rhs: CustomerIdentities) -> Bool {
        lhs.merged == rhs.merged
    }
}
