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
}
