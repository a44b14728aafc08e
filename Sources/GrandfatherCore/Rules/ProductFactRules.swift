/// SPEC §9, Product facts: a product's type, and a non-renewing product's term, are facts about
/// the product, drawn from every row and source of the run, not decided row by row from
/// whatever one row's shape offers.
///
/// The order: the policy's `products[id].type`; then what export rows state
/// (`is_auto_renewable`, `product_duration`, `entitlement_identifiers`); then what a
/// subscriber response's shape implies (a member of `subscriptions` renews; an item whose
/// entitlement RevenueCat shows with an `expires_date` is time-limited, and one it shows for
/// good is a non-consumable); then SPEC §8.12's fallback, consumable (`ProductTypeSource`'s
/// order). Stated over what a run's rows said of one product (`Evidence`), which
/// `ProductEvidence` (Inputs/) tallies as rows are read and `ProductFacts` gives each row.
///
/// No SQL twin: `normalize` writes each row with the type and term decided here.
enum ProductFactRules {
    /// What the rows of one product said.
    struct Evidence: Sendable, Equatable {
        /// Rows stating each type, by the source that stated it.
        var stated: [ProductTypeSource: [ProductType: Int]] = [:]
        /// Rows that stated nothing of the type (an export row with none of the three columns,
        /// a response's item no entitlement names).
        var silent = 0
        /// The shortest and longest `product_duration` export rows stated, `nil` when none did.
        var shortest: ProductDuration?
        var longest: ProductDuration?
    }

    /// What the policy says of the product.
    struct PolicyWord: Sendable, Equatable {
        /// Its `products[id].type`, if it gives one.
        var type: ProductType?
        /// Whether it gives the product a `term_days`.
        var givesTerm = false
    }

    /// A product's type and where it came from.
    struct Decision: Sendable, Equatable {
        var product: String
        var type: ProductType
        var source: ProductTypeSource
        /// What most rows of each source state (the more durable type on a tie).
        var bySource: [ProductTypeSource: ProductType]
        /// Two sources, or rows of one, stated different types (the policy aside, which
        /// settles the type).
        var disagrees: Bool
        /// Every type stated, by source, with its rows.
        var stated: [ProductTypeSource: [ProductType: Int]]
        var silent: Int
        /// The term export rows state (the longest, when they differ), and the shortest.
        var duration: ProductDuration?
        var shortestDuration: ProductDuration?
        /// A non-renewing product whose export rows state different terms and to which the
        /// policy gives none.
        var termsDisagree: Bool
        /// The term that ends each of its transactions (`MappedTransaction.termEnds`), where the
        /// run's evidence gives one: a non-renewing product the policy gives no `term_days`,
        /// whose export rows state a `product_duration` (the longest). Otherwise the policy's
        /// `term_days` or `non_renewing_term_days` ends them, and this is `nil`.
        var term: ProductDuration?
    }

    /// The type most rows of one source state: the more durable on a tie (`ProductType.code`).
    static func majority(_ counts: [ProductType: Int]) -> ProductType? {
        counts.max { ($0.value, -Int($0.key.code)) < ($1.value, -Int($1.key.code)) }?.key
    }

    /// The decision for `product`, given what its rows said and what the policy says of it:
    /// the first source in `ProductTypeSource`'s order with a word on its type, the policy
    /// first; with none, the fallback's consumable.
    static func decide(_ product: String, _ evidence: Evidence, policy: PolicyWord) -> Decision {
        var bySource: [ProductTypeSource: ProductType] = [:]
        for (source, counts) in evidence.stated { bySource[source] = majority(counts) }
        if let type = policy.type { bySource[.policy] = type }
        let source = bySource.keys.min() ?? .fallback
        let type = bySource[source] ?? .consumable
        let distinct = Set(evidence.stated.values.flatMap(\.keys))
        let evidenced = type == .nonRenewing && !policy.givesTerm
        return Decision(
            product: product, type: type, source: source, bySource: bySource,
            disagrees: source != .policy && distinct.count > 1, stated: evidence.stated, silent: evidence.silent,
            duration: evidence.longest, shortestDuration: evidence.shortest,
            termsDisagree: evidenced && evidence.longest != evidence.shortest,
            term: evidenced ? evidence.longest : nil)
    }

    /// Whether a row keeps the type it states, whatever its product's decision: the policy's
    /// word, or an export row's own (the richest word on that purchase).
    static func keepsItsType(_ source: ProductTypeSource) -> Bool {
        source == .policy || source == .export
    }

    /// The type a row of a product takes, and what it rests on, given its own (`type`, from
    /// `source`) and what most rows of each source state of its product (`Decision.bySource`):
    /// a row that states less than its product's evidence takes the strongest word: an export
    /// row's outranks a response's shape, which outranks the fallback.
    static func rowType(
        _ type: ProductType, from source: ProductTypeSource, product bySource: [ProductTypeSource: ProductType]
    ) -> (type: ProductType, source: ProductTypeSource) {
        if keepsItsType(source) { return (type, source) }
        if let exported = bySource[.export] { return (exported, .export) }
        if source == .fallback, let responded = bySource[.response] { return (responded, .response) }
        return (type, source)
    }
}
