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
/// Kept as a disjoint-set forest over the ids (union by size, paths halved as they are
/// walked), each tree carrying the id that names its customer: a merge, and a look-up, costs
/// the logarithm of the ids at most, so a chain of a hundred thousand merges is read in a
/// blink, where following each id's survivor one step at a time took the square.
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

    /// Every id a merge named, by its place in `ids`.
    private var places: [String: Int] = [:]
    private var ids: [String] = []
    /// Each id's parent in its tree; a root is its own parent.
    private var parent: [Int] = []
    /// A root's count of ids, for union by size.
    private var size: [Int] = []
    /// A root's customer: the place of the id that names every id of its tree.
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
        let from = root(place(of: id))
        let destination = place(of: other)
        let to = root(destination)
        guard from != to else {
            guard kind == .transfer, name[to] != destination else { return }
            how[name[to]] = .transfer
            how[destination] = nil
            name[to] = destination
            return
        }
        how[name[from]] = kind
        mergedCount += 1
        let (child, survivor) = size[from] <= size[to] ? (from, to) : (to, from)
        parent[child] = survivor
        size[survivor] += size[child]
        name[survivor] = name[to]
    }

    /// The id the records of `id` are filed under: `id` itself unless it was merged.
    func customerID(of id: String) -> String {
        guard var place = places[id] else { return id }
        while parent[place] != place { place = parent[place] }
        return ids[name[place]]
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
        for place in ids.indices {
            guard let kind = how[place] else { continue }
            var root = place
            while parent[root] != root { root = parent[root] }
            body(ids[place], ids[name[root]], kind)
        }
    }

    /// `id`'s place, made for an id not seen before.
    private mutating func place(of id: String) -> Int {
        if let place = places[id] { return place }
        let place = ids.count
        places[id] = place
        ids.append(id)
        parent.append(place)
        size.append(1)
        name.append(place)
        how.append(nil)
        return place
    }

    /// The root of `place`'s tree, halving the path walked.
    private mutating func root(_ place: Int) -> Int {
        var place = place
        while parent[place] != place {
            parent[place] = parent[parent[place]]
            place = parent[place]
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
