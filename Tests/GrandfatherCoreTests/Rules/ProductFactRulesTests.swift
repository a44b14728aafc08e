import Testing

@testable import GrandfatherCore

/// SPEC §9, Product facts, over plain values: the policy, then export rows, then responses'
/// shapes, then the fallback; what a row takes of its product's decision; and the term that
/// ends a non-renewing product's transactions. (`ProductFactsTests` runs the same through
/// RevenueCat files.)
struct ProductFactRulesTests {
    typealias Rules = ProductFactRules

    static func evidence(_ stated: [ProductTypeSource: [ProductType: Int]], silent: Int = 0) -> Rules.Evidence {
        Rules.Evidence(stated: stated, silent: silent)
    }

    @Test("the first source with a word decides: policy, export, response, then the fallback's consumable")
    func theOrderOfSources() {
        let everything = Self.evidence([.export: [.nonRenewing: 1], .response: [.autoRenewable: 9]])
        let policy = Rules.decide("p", everything, policy: Rules.PolicyWord(type: .nonConsumable))
        #expect(policy.type == .nonConsumable && policy.source == .policy && !policy.disagrees)
        let export = Rules.decide("p", everything, policy: Rules.PolicyWord())
        #expect(export.type == .nonRenewing && export.source == .export && export.disagrees)
        let response = Rules.decide("p", Self.evidence([.response: [.autoRenewable: 2]]), policy: Rules.PolicyWord())
        #expect(response.type == .autoRenewable && response.source == .response && !response.disagrees)
        let nothing = Rules.decide("p", Self.evidence([:], silent: 4), policy: Rules.PolicyWord())
        #expect(nothing.type == .consumable && nothing.source == .fallback && nothing.silent == 4)
    }

    @Test("of one source, what most rows state; on a tie, the more durable type")
    func theMajorityOfASource() {
        #expect(Rules.majority([.consumable: 3, .nonConsumable: 2]) == .consumable)
        #expect(Rules.majority([.consumable: 2, .nonConsumable: 2, .nonRenewing: 2]) == .nonRenewing)
        #expect(Rules.majority([.autoRenewable: 1, .nonRenewing: 1]) == .autoRenewable)
        #expect(Rules.majority([:]) == nil)
    }

    @Test("a non-renewing product's term: the longest its export rows state, unless the policy gives one")
    func theTerm() {
        let month = ProductDuration(months: 1, days: 0)
        let year = ProductDuration(months: 12, days: 0)
        var evidence = Self.evidence([.export: [.nonRenewing: 2]])
        (evidence.shortest, evidence.longest) = (month, year)
        let decided = Rules.decide("p", evidence, policy: Rules.PolicyWord())
        #expect(decided.term == year && decided.termsDisagree)
        let termed = Rules.decide("p", evidence, policy: Rules.PolicyWord(givesTerm: true))
        #expect(termed.term == nil && !termed.termsDisagree)
        let typed = Rules.decide("p", evidence, policy: Rules.PolicyWord(type: .nonConsumable))
        #expect(typed.term == nil && !typed.termsDisagree)
        evidence.shortest = year
        #expect(Rules.decide("p", evidence, policy: Rules.PolicyWord()).termsDisagree == false)
    }

    @Test(
        "a row keeps its own word when it is the policy's or an export's; else it takes the export's, then, on the fallback, a response's",
        arguments: [
            (ProductTypeSource.policy, ProductType.consumable, ProductType.consumable, ProductTypeSource.policy),
            (.export, .nonConsumable, .nonConsumable, .export),
            (.response, .nonRenewing, .autoRenewable, .export),
            (.fallback, .consumable, .autoRenewable, .export),
            (.record, .consumable, .autoRenewable, .export),
        ])
    func aRowTakesTheStrongestWord(
        source: ProductTypeSource, own: ProductType, taken: ProductType, takenFrom: ProductTypeSource
    ) {
        let product: [ProductTypeSource: ProductType] = [.export: .autoRenewable, .response: .nonConsumable]
        let row = Rules.rowType(own, from: source, product: product)
        #expect(row.type == taken && row.source == takenFrom)
    }

    @Test func withoutAnExportsWordOnlyAFallbackRowTakesAResponses() {
        let product: [ProductTypeSource: ProductType] = [.response: .nonConsumable]
        #expect(Rules.rowType(.consumable, from: .fallback, product: product) == (.nonConsumable, .response))
        #expect(Rules.rowType(.nonRenewing, from: .response, product: product) == (.nonRenewing, .response))
        #expect(Rules.rowType(.consumable, from: .fallback, product: [:]) == (.consumable, .fallback))
    }
}
