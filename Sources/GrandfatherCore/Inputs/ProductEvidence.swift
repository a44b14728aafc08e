import GrandfatherEngine

/// What a run's rows say of each product's type (SPEC §9, Product facts), tallied as rows are
/// read: the rule that turns it into the product's type and term is `ProductFactRules`.
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

    /// Each product's decision (`ProductFactRules.decide`), given the policy's types and the
    /// products it gives a `term_days`.
    func decisions(policy: [String: ProductType], termed: Set<String> = []) -> [Int: ProductFactRules.Decision] {
        tallies.mapValues { tally in
            ProductFactRules.decide(
                tally.name,
                ProductFactRules.Evidence(
                    stated: tally.stated, silent: tally.silent, shortest: tally.shortest, longest: tally.longest),
                policy: ProductFactRules.PolicyWord(type: policy[tally.name], givesTerm: termed.contains(tally.name)))
        }
    }
}

/// Each product's type and term as the run's evidence decides them (`ProductFactRules`), given
/// to each row that states less than its product's evidence (`ProductFactRules.rowType`) and
/// to each row of a non-renewing product whose term the evidence gives
/// (`ProductFactRules.Decision.term`, which ends the row: `MappedTransaction.termEnds`).
struct ProductFacts: Sendable {
    /// Every product's decision, by product id, for reports.
    let decisions: [String: ProductFactRules.Decision]
    /// What each product's export rows and responses state, by `ProductEvidence.key`, for
    /// products some row stated less of: empty in most runs, and then rows are fed as read,
    /// with no lookup.
    private let weaker: [Int: [ProductTypeSource: ProductType]]
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
        var decisions: [String: ProductFactRules.Decision] = [:]
        var weaker: [Int: [ProductTypeSource: ProductType]] = [:]
        var listed: [Int: String] = [:]
        var terms: [Int: ProductDuration] = [:]
        for (key, decision) in evidence.decisions(policy: policy, termed: termed) {
            decisions[decision.product] = decision
            if ProductFindings.lists(decision) { listed[key] = decision.product }
            if let term = decision.term { terms[key] = term }
            guard decision.source != .policy else { continue }
            // Rows stated less than the strongest source did: silent ones beside any word, or
            // responses' beside an export's.
            let exported = decision.bySource[.export] != nil
            let responded = decision.stated[.response] != nil
            if (decision.silent > 0 && (exported || responded)) || (exported && responded) {
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
        // An export row's own word stands whatever its product's: asked first, so that most
        // rows of an export are fed with no lookup.
        if !weaker.isEmpty, !ProductFactRules.keepsItsType(record.typeSource),
            let stated = texts.read(.productID, { weaker[ProductEvidence.key($0)] }) ?? nil
        {
            (record.productType, record.typeSource) = ProductFactRules.rowType(
                record.productType, from: record.typeSource, product: stated)
        }
        if !terms.isEmpty, record.productType == .nonRenewing,
            let term = texts.read(.productID, { terms[ProductEvidence.key($0)] }) ?? nil
        {
            record.termEnds = term.end(from: record.purchaseDate)
        }
    }
}
