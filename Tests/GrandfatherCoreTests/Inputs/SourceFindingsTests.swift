import Testing

@testable import GrandfatherCore

/// Issue 51, the kit: what a source hands on beside records is a `SourceFinding` of its own
/// kind, which the door merges across files and sources, files under merged ids and weighs
/// once every source is read, with no field of a shared type per source.
@Suite struct SourceFindingsTests {
    @Test func aKindNeverHandedOnIsItsEmptyValueAndAbsent() {
        let findings = SourceFindings()
        #expect(findings[ServiceEntitlements.self].byCustomer.isEmpty)
        #expect(findings[ifHandedOn: AppStoreSummary.self] == nil)
        #expect(findings.weighedCustomers.isEmpty)
    }

    @Test func eachKindMergesWhatEveryFileAndSourceHandsOn() {
        var first = SourceFindings()
        first.handOn(ServiceEntitlements(byCustomer: ["a": ["pro"]]))
        first.handOn(ServiceEntitlements(byCustomer: ["a": ["plus"], "b": []]))
        var checks = SignatureChecks()
        checks.acceptSelfSigned = true
        first.handOn(AppStoreSummary())
        var second = SourceFindings()
        second.handOn(ServiceEntitlements(byCustomer: ["b": ["pro"]]))
        second.handOn(AppStoreSummary(checks: checks))
        first.merge(second)
        #expect(first[ServiceEntitlements.self].byCustomer == ["a": ["pro", "plus"], "b": ["pro"]])
        // One App Store summary covers every App Store input: the later one given stands.
        #expect(first[ifHandedOn: AppStoreSummary.self]?.checks.acceptSelfSigned == true)
        first[ifHandedOn: AppStoreSummary.self] = nil
        #expect(first[ifHandedOn: AppStoreSummary.self] == nil)
        #expect(first[ServiceEntitlements.self].byCustomer.count == 2)
    }

    @Test func findingsAreFiledUnderTheMergedCustomers() {
        var identities = CustomerIdentities()
        identities.merge("anon", onto: "user", how: .alias)
        var findings = SourceFindings()
        findings.handOn(ServiceEntitlements(byCustomer: ["anon": ["pro"], "user": ["plus"], "other": []]))
        findings.handOn(ClaimedOrders(claims: [.init(customerID: "anon", order: "GPA.1")]))
        let refiled = findings.refiled(by: identities)
        #expect(refiled[ServiceEntitlements.self].byCustomer == ["user": ["pro", "plus"], "other": []])
        #expect(refiled[ClaimedOrders.self].claims.map(\.customerID) == ["user"])
        // Without merges, nothing moves.
        #expect(findings.refiled(by: CustomerIdentities())[ClaimedOrders.self].claims.map(\.customerID) == ["anon"])
    }

    /// Claims are weighed against the orders of every report, whichever source handed either on.
    @Test func claimsAreWeighedOnceEverySourceHasHandedOn() {
        var findings = SourceFindings()
        findings.handOn(ClaimedOrders(claims: [.init(customerID: "b", order: "GPA.2")]))
        findings.handOn(ClaimedOrders(claims: [.init(customerID: "a", order: "GPA.1")]))
        findings.handOn(SalesPopulation())
        let customers = findings.weighedCustomers
        #expect(customers.map(\.id) == ["a", "b"])
        // No report lists either order.
        #expect(customers.allSatisfy { $0.orderClaims == .notFound })
    }
}
