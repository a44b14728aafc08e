import PropertyBased
import Testing

@testable import GrandfatherCore

/// Issue 33, items 2 and 7: `CustomerIdentities` keeps its merges in a disjoint-set forest.
/// Random chains of alias and transfer events must give the customers that applying each
/// event to every id, one at a time, gives (`OneAtATime`), transfers back included.
@Suite struct CustomerIdentitiesPropertyTests {
    /// The plainest reading of the merges: every id's customer written down, and each merge
    /// rewriting every id of the customer it moves.
    struct OneAtATime {
        var customer: [String: String] = [:]
        var how: [String: CustomerIdentities.Merge] = [:]

        func customerID(of id: String) -> String { customer[id] ?? id }

        mutating func merge(_ id: String, onto other: String, how kind: CustomerIdentities.Merge) {
            let (from, to) = (customerID(of: id), customerID(of: other))
            customer[id] = from
            customer[other] = to
            if from == to {
                // A transfer between ids of one customer moves it to the id the purchases went to.
                guard kind == .transfer, other != to else { return }
                for (member, named) in customer where named == to { customer[member] = other }
                how[to] = .transfer
                how[other] = nil
                return
            }
            for (member, named) in customer where named == from { customer[member] = to }
            how[from] = kind
        }

        var merged: [CustomerIdentities.Merged] {
            customer.filter { $0.key != $0.value }.map { id, named in
                CustomerIdentities.Merged(id: id, customerID: named, how: how[id] ?? .alias)
            }.sorted { $0.id.codePointPrecedes($1.id) }
        }
    }

    /// A merge drawn from twelve ids, so that chains, cycles and transfers back are common: one
    /// number holds the id, the id it is merged onto, and whether it is a transfer.
    static let merge = Gen.int(in: 0...287)

    @Test func randomChainsGiveTheCustomersOfOneMergeAtATime() async {
        await propertyCheck(count: 400, input: Self.merge.array(of: 0...60)) { merges in
            var identities = CustomerIdentities()
            var plain = OneAtATime()
            for drawn in merges {
                let (id, other) = (drawn % 12, drawn / 12 % 12)
                let kind: CustomerIdentities.Merge = drawn >= 144 ? .transfer : .alias
                identities.merge("u\(id)", onto: "u\(other)", how: kind)
                plain.merge("u\(id)", onto: "u\(other)", how: kind)
            }
            #expect(identities.merged == plain.merged, "\(merges)")
            #expect(identities.isEmpty == plain.merged.isEmpty)
            for id in 0...12 { #expect(identities.customerID(of: "u\(id)") == plain.customerID(of: "u\(id)")) }
            #expect(
                identities.resolved == Dictionary(uniqueKeysWithValues: plain.merged.map { ($0.id, $0.customerID) }))
        }
    }

    @Test("a transfer back moves the customer to the id the purchases went to last")
    func transferBack() {
        var identities = CustomerIdentities()
        identities.merge("anon-a", onto: "user-b", how: .transfer)
        #expect(identities.customerID(of: "anon-a") == "user-b")
        identities.merge("user-b", onto: "anon-a", how: .transfer)
        #expect(identities.customerID(of: "user-b") == "anon-a")
        #expect(identities.merged == [CustomerIdentities.Merged(id: "user-b", customerID: "anon-a", how: .transfer)])
        // An alias back does not move it: both ids name one person, under the id it has.
        identities.merge("anon-a", onto: "user-b", how: .alias)
        #expect(identities.customerID(of: "user-b") == "anon-a")
    }

    @Test("a chain of 200,000 merges, alias and transfer, resolves every id to the chain's end")
    func longChains() {
        var identities = CustomerIdentities()
        let count = 200_000
        for index in 0..<count {
            identities.merge("u\(index)", onto: "u\(index + 1)", how: index % 2 == 0 ? .alias : .transfer)
        }
        let resolved = identities.resolved
        #expect(resolved.count == count)
        #expect(resolved.values.allSatisfy { $0 == "u\(count)" })
        #expect(identities.customerID(of: "u0") == "u\(count)")
    }
}
