/// What a run's rows say of each product's type (SPEC §9, Product facts): a product's type is
/// a fact about the product, drawn from every row and source, not decided row by row from
/// whatever one row's shape offers.
///
/// The order: the policy's `products[id].type`; then what export rows state
/// (`is_auto_renewable`, `product_duration`, `entitlement_identifiers`); then what a
/// subscriber response's shape implies (a member of `subscriptions` renews; an item whose
/// entitlement RevenueCat shows with an `expires_date` is time-limited, and one it shows for
/// good is a non-consumable); then SPEC §8.12's fallback, consumable.
struct ProductEvidence: Sendable, Equatable {
    typealias Source = ProductTypeSource

    /// What the rows of one product said.
    struct Tally: Sendable, Equatable {
        var name: String
        /// Rows stating each type, by the source that stated it.
        var stated: [Source: [ProductType: Int]] = [:]
        /// Rows that stated nothing of the type (an export row with none of the three columns,
        /// a response's item no entitlement names).
        var silent = 0
        /// The types rows were read as, each on its own: where the decision differs, the rows
        /// are given the product's type when fed.
        var rowTypes: Set<ProductType> = []
    }

    /// Tallies by a hash of the product id's bytes, so that noting a row makes no string.
    private(set) var tallies: [Int: Tally] = [:]

    var isEmpty: Bool { tallies.isEmpty }

    static func key(_ product: Span<UInt8>) -> Int {
        var hasher = Hasher()
        for index in product.indices { hasher.combine(product[index]) }
        return hasher.finalize()
    }

    /// Notes one row of `product`, read as `rowType`, whose `source` states `stated` (`nil`:
    /// nothing).
    mutating func note(product: Span<UInt8>, rowType: ProductType, source: Source, stated: ProductType?) {
        let key = Self.key(product)
        if tallies[key] == nil {
            var name: [UInt8] = []
            for index in product.indices { name.append(product[index]) }
            tallies[key] = Tally(name: String(decoding: name, as: UTF8.self))
        }
        tallies[key]?.rowTypes.insert(rowType)
        if let stated {
            tallies[key]?.stated[source, default: [:]][stated, default: 0] += 1
        } else {
            tallies[key]?.silent += 1
        }
    }

    /// Adds what `other` noted.
    mutating func merge(_ other: ProductEvidence) {
        for (key, tally) in other.tallies {
            guard var mine = tallies[key] else {
                tallies[key] = tally
                continue
            }
            mine.silent += tally.silent
            mine.rowTypes.formUnion(tally.rowTypes)
            for (source, counts) in tally.stated {
                mine.stated[source, default: [:]].merge(counts, uniquingKeysWith: +)
            }
            tallies[key] = mine
        }
    }

    /// A product's type and where it came from.
    struct Decision: Sendable, Equatable {
        var product: String
        var type: ProductType
        var source: Source
        /// What most rows of each source state (the more durable type on a tie).
        var bySource: [Source: ProductType]
        /// Two sources, or rows of one, stated different types (the policy aside, which
        /// settles the type).
        var disagrees: Bool
        /// Every type stated, by source, with its rows.
        var stated: [Source: [ProductType: Int]]
        var silent: Int
    }

    /// Each product's decision, given the policy's types.
    func decisions(policy: [String: ProductType]) -> [Int: Decision] {
        var decided: [Int: Decision] = [:]
        for (key, tally) in tallies {
            var bySource: [Source: ProductType] = [:]
            for (source, counts) in tally.stated {
                bySource[source] = counts.max { ($0.value, -Int($0.key.code)) < ($1.value, -Int($1.key.code)) }?.key
            }
            let distinct = Set(tally.stated.values.flatMap(\.keys))
            if let type = policy[tally.name] { bySource[.policy] = type }
            let source = bySource.keys.min() ?? .fallback
            decided[key] = Decision(
                product: tally.name, type: bySource[source] ?? .consumable, source: source, bySource: bySource,
                disagrees: source != .policy && distinct.count > 1, stated: tally.stated, silent: tally.silent)
        }
        return decided
    }
}

/// Each product's type as the run's evidence decides it (`ProductEvidence.decisions`), given
/// to each row that states less than the product's evidence: a row that states its type
/// keeps it (the richest word on that purchase), while a row that states nothing, or only
/// what a response's shape implies, takes what the strongest source of the run states of
/// its product (an export's word outranks a response's, which outranks the fallback).
struct ProductFacts: Sendable {
    /// Every product's decision, by product id, for reports.
    let decisions: [String: ProductEvidence.Decision]
    /// What each product's export rows and responses state, by `ProductEvidence.key`, for
    /// products some row stated less of: empty in most runs, and then rows are fed as read,
    /// with no lookup.
    private let weaker: [Int: [ProductEvidence.Source: ProductType]]

    init(_ evidence: ProductEvidence, policy: [String: ProductType]) {
        var decisions: [String: ProductEvidence.Decision] = [:]
        var weaker: [Int: [ProductEvidence.Source: ProductType]] = [:]
        for (key, decision) in evidence.decisions(policy: policy) {
            decisions[decision.product] = decision
            guard decision.source != .policy, let tally = evidence.tallies[key] else { continue }
            // Rows stated less than the strongest source did: silent ones, or responses' beside an export's.
            let stronger = decision.bySource[.export] != nil && tally.stated[.response] != nil
            if tally.silent > 0 || stronger { weaker[key] = decision.bySource }
        }
        self.decisions = decisions
        self.weaker = weaker
    }

    /// Gives `record` what its product's stronger evidence states, where the record's own
    /// type rests on less.
    func decide(_ record: inout MappedTransaction, texts: some TransactionTexts) {
        guard !weaker.isEmpty, record.typeSource != .policy, record.typeSource != .export,
            let stated = texts.read(.productID, { weaker[ProductEvidence.key($0)] }) ?? nil
        else { return }
        if let type = stated[.export] {
            record.productType = type
            record.typeSource = .export
        } else if record.typeSource == .fallback, let type = stated[.response] {
            record.productType = type
            record.typeSource = .response
        }
    }
}
