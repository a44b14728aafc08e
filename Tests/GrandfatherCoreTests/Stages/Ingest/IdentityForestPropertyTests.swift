import PropertyBased
import Testing

@testable import GrandfatherCore

/// The kit's `IdentityForest`: after any joins, in any order, two ids share a root exactly
/// when a path of joins links them (checked against groups kept as plain sets), a join of one
/// group reports nothing, and a long chain is joined without following it step by step.
@Suite struct IdentityForestPropertyTests {
    @Test func idsShareARootExactlyWhenJoinsLinkThem() async {
        await propertyCheck(input: Gen.int(in: 0...11).array(of: 2).array(of: 0...30)) { pairs in
            var forest = IdentityForest()
            var groups: [Set<String>] = []
            func group(of id: String) -> Int? { groups.firstIndex { $0.contains(id) } }
            for pair in pairs {
                let (one, other) = ("id\(pair[0])", "id\(pair[1])")
                let joined = forest.join(forest.place(of: one), forest.place(of: other))
                let (first, second) = (group(of: one), group(of: other))
                let alreadyOne = one == other || (first != nil && first == second)
                #expect((joined == nil) == alreadyOne)
                guard !alreadyOne else { continue }
                var merged: Set<String> = [one, other]
                for index in [first, second].compactMap({ $0 }).sorted(by: >) {
                    merged.formUnion(groups.remove(at: index))
                }
                groups.append(merged)
            }
            for one in forest.ids {
                for other in forest.ids {
                    let together = one == other || (group(of: one) != nil && group(of: one) == group(of: other))
                    let (a, b) = (forest.existingPlace(of: one)!, forest.existingPlace(of: other)!)
                    #expect((forest.rootOf(a) == forest.rootOf(b)) == together)
                }
            }
            #expect(forest.existingPlace(of: "never") == nil)
        }
    }

    @Test func aLongChainAndTheLinkClosingItsLoop() {
        var forest = IdentityForest()
        let count = 200_000
        for index in 1..<count {
            #expect(forest.join(forest.place(of: "t\(index)"), forest.place(of: "t\(index - 1)")) != nil)
        }
        // The link back to the chain's end closes a loop: one group already.
        #expect(forest.join(forest.place(of: "t0"), forest.place(of: "t\(count - 1)")) == nil)
        let root = forest.rootOf(0)
        #expect(forest.ids.indices.allSatisfy { forest.rootOf($0) == root })
    }
}
