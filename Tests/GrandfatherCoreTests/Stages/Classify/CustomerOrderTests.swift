import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore

/// Results are in customer-id code-point order (SPEC §8.25), however long a prefix the ids
/// share: the sort keys start after it.
struct CustomerOrderTests {
    @Test(
        "ids sharing a prefix come out in code-point order",
        arguments: ["", "$RCAnonymousID:", "customer-0000000000-"])
    func sharedPrefix(prefix: String) throws {
        var generator = SplitMix(seed: 25)
        var ids = (0..<300).map { _ in
            prefix + String(generator.next() % 100_000, radix: 16) + (generator.next() % 3 == 0 ? "é" : "")
        }
        // Ties on the eight bytes after the prefix, an id that is a prefix of others, and the
        // prefix itself.
        ids += [prefix + "abcdefgh", prefix + "abcdefghX", prefix + "abcdefgh0", prefix + "a", prefix]
        ids = Array(Set(ids.filter { !$0.isEmpty }))
        ids.shuffle(using: &generator)
        let csv = "customer_id,platform\n" + ids.map { "\($0),ios" }.joined(separator: "\n")
        let run = try AuditFixture.run(customers: csv)
        let got = run.audit.customers.map(\.customer.id)
        #expect(got == ids.sorted { $0.codePointPrecedes($1) })
    }

    @Test("ids longer than the index holds, first met after short ones, still find their customer")
    func longIDsAfterShortOnes() throws {
        let short = (0..<40).map { "c\($0)" }
        let long = (0..<40).map { "$RCAnonymousID:\(String(repeating: "0", count: 30))\($0 + 10)" }
        let customers =
            "customer_id,platform,original_app_version\n"
            + (short + long).map { "\($0),ios,3.0" }.joined(separator: "\n")
        let transactions =
            "transaction_id,customer_id,product_id,product_type,purchase_date\n"
            + (short + long).enumerated().map { "t\($0),\($1),pro.lifetime,non_consumable,2025-01-01T00:00:00Z" }
            .joined(separator: "\n")
        let run = try AuditFixture.run(customers: customers, transactions: transactions)
        #expect(run.audit.customers.count == 80)
        #expect(run.audit.customers.allSatisfy { !$0.customer.isOrphan }, "\(run.audit.customers.map(\.customerClass))")
        #expect(Set(run.audit.customers.map(\.customerClass)).count == 1, "every customer alike")
    }
}
