import GrandfatherEngine
import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore

/// `CustomerActivity.removeRepeatedGrants`: a customer's current grants made a set again, each
/// where it first came, a repeat's sources named as `TransactionProvenance.named(against:)`
/// names them, checked against the plain reading of that rule.
struct RepeatedGrantTests {
    private static func grant(_ id: Int, product: Int, shape: TransactionShape) -> CustomerActivity.CurrentGrant {
        let transactionID = Array("t\(id)".utf8).withUnsafeBytes { CompactText($0) }
        return CustomerActivity.CurrentGrant(
            transactionID: transactionID, productID: "p\(product)", productType: .autoRenewable, throughGrace: false,
            familyShared: false, promotional: false, endsAt: Instant(microseconds: Int64(id) * 1_000_000),
            revenue: nil, provenance: TransactionProvenance(shape: shape))
    }

    @Test(
        "repeats are removed in place, first places kept, their sources named alike", arguments: [17, 40, 1_000, 5_000])
    func repeatsRemoved(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SplitMix(seed: seed)
        let distinct = max(1, count / 3)
        var activity = CustomerActivity()
        for _ in 0..<count {
            let id = Int(random.next() % UInt64(distinct))
            let shape = TransactionShape.allCases[Int(random.next() % UInt64(TransactionShape.allCases.count))]
            activity.current.append(Self.grant(id, product: id % 3, shape: shape))
        }
        var expected: [CustomerActivity.CurrentGrant] = []
        for grant in activity.current {
            if let index = expected.firstIndex(of: grant) {
                expected[index].provenance = grant.provenance.named(against: expected[index].provenance)
            } else {
                expected.append(grant)
            }
        }
        activity.removeRepeatedGrants()
        #expect(activity.current == expected, "seed \(seed)")
        #expect(activity.current.map(\.provenance) == expected.map(\.provenance), "seed \(seed)")
    }
}
