import GrandfatherEngine

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

    /// What the rows of one product said: a handful of counters, so that noting a row
    /// (every row of an export) is one table lookup and a few adds.
    struct Tally: Sendable, Equatable {
        var name: String
        /// Rows stating each type, by source: `4 * source + type code` (four types for each of
        /// `ProductTypeSource`'s six cases).
        var counts = InlineArray<24, Int>(repeating: 0)
        /// Rows that stated nothing of the type (an export row with none of the three columns,
        /// a response's item no entitlement names).
        var silent = 0
        /// The shortest and longest `product_duration` rows stated (SPEC §9: a non-renewing
        /// product's term), `nil` when none did.
        var shortest: ProductDuration?
        var longest: ProductDuration?

        mutating func note(_ duration: ProductDuration) {
            if shortest.map({ duration < $0 }) ?? true { shortest = duration }
            if longest.map({ duration > $0 }) ?? true { longest = duration }
        }

        /// Rows stating each type, by the source that stated it.
        var stated: [Source: [ProductType: Int]] {
            var stated: [Source: [ProductType: Int]] = [:]
            for source in Source.allCases {
                for type in ProductType.allCases where counts[4 * Int(source.rawValue) + Int(type.code)] > 0 {
                    stated[source, default: [:]][type] = counts[4 * Int(source.rawValue) + Int(type.code)]
                }
            }
            return stated
        }

        static func == (lhs: Tally, rhs: Tally) -> Bool {
            lhs.name == rhs.name && lhs.silent == rhs.silent && lhs.shortest == rhs.shortest
                && lhs.longest == rhs.longest && lhs.counts.indices.allSatisfy { lhs.counts[$0] == rhs.counts[$0] }
        }
    }

    /// Tallies by a hash of the product id's bytes, so that noting a row makes no string.
    private(set) var tallies: [Int: Tally] = [:]

    var isEmpty: Bool { tallies.isEmpty }

    static func key(_ product: Span<UInt8>) -> Int {
        Int(truncatingIfNeeded: StableHash.of(product))
    }

    /// Notes one row of `product`, whose `source` states `stated` (`nil`: nothing) and, an
    /// export row, the product's `duration`.
    mutating func note(product: Span<UInt8>, source: Source, stated: ProductType?, duration: ProductDuration? = nil) {
        let key = Self.key(product)
        var index = tallies.index(forKey: key)
        if index == nil {
            var name: [UInt8] = []
            for offset in product.indices { name.append(product[offset]) }
            tallies[key] = Tally(name: String(decoding: name, as: UTF8.self))
            index = tallies.index(forKey: key)
        }
        guard let index else { return }
        // Through the values view: changed in place, never copied out and back.
        if let stated {
            tallies.values[index].counts[4 * Int(source.rawValue) + Int(stated.code)] += 1
        } else {
            tallies.values[index].silent += 1
        }
        if let duration { tallies.values[index].note(duration) }
    }

    /// Adds what `other` noted.
    mutating func merge(_ other: ProductEvidence) {
        for (key, tally) in other.tallies {
            guard var mine = tallies[key] else {
                tallies[key] = tally
                continue
            }
            mine.silent += tally.silent
            for index in mine.counts.indices { mine.counts[index] += tally.counts[index] }
            for duration in [tally.shortest, tally.longest].compactMap(\.self) { mine.note(duration) }
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
        /// The term export rows state (the longest, when they differ), and the shortest.
        var duration: ProductDuration?
        var shortestDuration: ProductDuration?
        /// A non-renewing product whose export rows state different terms and to which the
        /// policy gives none (`ProductFacts` decides it).
        var termsDisagree = false
    }

    /// Each product's decision, given the policy's types.
    func decisions(policy: [String: ProductType]) -> [Int: Decision] {
        var decided: [Int: Decision] = [:]
        for (key, tally) in tallies {
            var bySource: [Source: ProductType] = [:]
            let stated = tally.stated
            for (source, counts) in stated {
                bySource[source] = counts.max { ($0.value, -Int($0.key.code)) < ($1.value, -Int($1.key.code)) }?.key
            }
            let distinct = Set(stated.values.flatMap(\.keys))
            if let type = policy[tally.name] { bySource[.policy] = type }
            let source = bySource.keys.min() ?? .fallback
            decided[key] = Decision(
                product: tally.name, type: bySource[source] ?? .consumable, source: source, bySource: bySource,
                disagrees: source != .policy && distinct.count > 1, stated: stated, silent: tally.silent,
                duration: tally.longest, shortestDuration: tally.shortest)
        }
        return decided
    }
}

/// Each product's type as the run's evidence decides it (`ProductEvidence.decisions`), given
/// to each row that states less than the product's evidence: a row that states its type
/// keeps it (the richest word on that purchase), while a row that states nothing, or only
/// what a response's shape implies, takes what the strongest source of the run states of
/// its product (an export's word outranks a response's, which outranks the fallback).
///
/// A non-renewing product's term (SPEC §9, Product facts) is the policy's `term_days` when it
/// gives one; else the `product_duration` the export's rows state (the longest, when they
/// differ), which ends each of its transactions (`MappedTransaction.termEnds`); else the
/// policy's `non_renewing_term_days`.
struct ProductFacts: Sendable {
    /// Every product's decision, by product id, for reports.
    let decisions: [String: ProductEvidence.Decision]
    /// What each product's export rows and responses state, by `ProductEvidence.key`, for
    /// products some row stated less of: empty in most runs, and then rows are fed as read,
    /// with no lookup.
    private let weaker: [Int: [ProductEvidence.Source: ProductType]]
    /// The products the reports list (`ProductFindings`), by key, with their ids: the
    /// customers each touches are counted as rows are fed.
    let listed: [Int: String]
    /// The term of each non-renewing product the export states one for and the policy gives
    /// none, by key: empty in most runs.
    private let terms: [Int: ProductDuration]

    /// - Parameters:
    ///   - policy: the policy's type of each product that has one.
    ///   - termed: the products the policy gives a `term_days`.
    init(_ evidence: ProductEvidence, policy: [String: ProductType], termed: Set<String> = []) {
        var decisions: [String: ProductEvidence.Decision] = [:]
        var weaker: [Int: [ProductEvidence.Source: ProductType]] = [:]
        var listed: [Int: String] = [:]
        var terms: [Int: ProductDuration] = [:]
        for (key, found) in evidence.decisions(policy: policy) {
            var decision = found
            decision.termsDisagree =
                decision.type == .nonRenewing && !termed.contains(decision.product)
                && decision.duration != decision.shortestDuration
            decisions[decision.product] = decision
            if ProductFindings.lists(decision) { listed[key] = decision.product }
            if decision.type == .nonRenewing, !termed.contains(decision.product), let duration = decision.duration {
                terms[key] = duration
            }
            guard decision.source != .policy, let tally = evidence.tallies[key] else { continue }
            // Rows stated less than the strongest source did: silent ones beside any word, or
            // responses' beside an export's.
            let exported = decision.bySource[.export] != nil
            let responded = decision.stated[.response] != nil
            if (tally.silent > 0 && (exported || responded)) || (exported && responded) {
                weaker[key] = decision.bySource
            }
        }
        self.decisions = decisions
        self.weaker = weaker
        self.listed = listed
        self.terms = terms
    }

    /// The key of the record's product when the reports list it, else `nil`.
    func listedKey(_ texts: some TransactionTexts) -> Int? {
        guard !listed.isEmpty, let key = texts.read(.productID, ProductEvidence.key), listed[key] != nil else {
            return nil
        }
        return key
    }

    /// Gives `record` what its product's stronger evidence states, where the record's own
    /// type rests on less, and, a non-renewing one, its product's term.
    func decide(_ record: inout MappedTransaction, texts: some TransactionTexts) {
        if !weaker.isEmpty, record.typeSource != .policy, record.typeSource != .export,
            let stated = texts.read(.productID, { weaker[ProductEvidence.key($0)] }) ?? nil
        {
            if let type = stated[.export] {
                record.productType = type
                record.typeSource = .export
            } else if record.typeSource == .fallback, let type = stated[.response] {
                record.productType = type
                record.typeSource = .response
            }
        }
        if !terms.isEmpty, record.productType == .nonRenewing,
            let term = texts.read(.productID, { terms[ProductEvidence.key($0)] }) ?? nil
        {
            record.termEnds = term.end(from: record.purchaseDate)
        }
    }
}
