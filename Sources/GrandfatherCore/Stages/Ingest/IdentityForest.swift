/// Ids joined into groups: the kit's one structure for saying which ids name one thing (a
/// customer's aliases and transfers, the tokens of one subscription chain), so that no source
/// follows ids one step at a time and pays the square of a long chain.
///
/// A disjoint-set forest over the ids' places (union by size, paths halved as they are
/// walked): a join, and a look-up, cost the logarithm of the ids at most. What a group
/// answers (the id that names a customer, a chain's first token) is the caller's, kept by the
/// place of the group's root, which `join` reports. A caller whose ids are numbered already
/// (`init(numbered:)`) joins their places without naming them.
struct IdentityForest: Sendable {
    /// Every id joined, by its place in `ids`.
    private var places: [String: Int] = [:]
    /// The ids, by place, in the order they were first seen.
    private(set) var ids: [String] = []
    /// Each place's parent in its tree; a root is its own parent.
    private var parent: [Int] = []
    /// A root's count of places, for union by size.
    private var size: [Int] = []

    /// A forest of `count` places its caller has numbered already (a source's records, by
    /// their place in its list), each a group of its own; it names no ids, and `place(of:)` is
    /// not asked of it.
    init(numbered count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    init() {}

    /// The place of `id`, made for an id not seen before.
    mutating func place(of id: String) -> Int {
        precondition(ids.count == parent.count, "a forest of numbered places names no ids")
        if let place = places[id] { return place }
        let place = ids.count
        places[id] = place
        ids.append(id)
        parent.append(place)
        size.append(1)
        return place
    }

    /// The place of `id`, or `nil` for an id never joined.
    func existingPlace(of id: String) -> Int? { places[id] }

    /// The root of `place`'s group, halving the path walked.
    mutating func root(_ place: Int) -> Int {
        var place = place
        while parent[place] != place {
            parent[place] = parent[parent[place]]
            place = parent[place]
        }
        return place
    }

    /// The root of `place`'s group, for a reader that may not shorten paths.
    func rootOf(_ place: Int) -> Int {
        var place = place
        while parent[place] != place { place = parent[place] }
        return place
    }

    /// Joins the groups of two places: the root that stands for both, and the one that no
    /// longer does; `nil` when they were one group already (a chain that loops back).
    mutating func join(_ one: Int, _ other: Int) -> (survivor: Int, absorbed: Int)? {
        let (first, second) = (root(one), root(other))
        guard first != second else { return nil }
        let (absorbed, survivor) = size[first] <= size[second] ? (first, second) : (second, first)
        parent[absorbed] = survivor
        size[survivor] += size[absorbed]
        return (survivor, absorbed)
    }
}
