import Testing

@testable import GrandfatherCore

/// SPEC §8.1: format by the first non-blank character, kind by the fields shared.
struct InputRecognizerTests {
    @Test("format and kind come from content, not names")
    func byContent() throws {
        let run = try AuditFixture.run([
            FixtureFile("transactions.csv", "customer_id,platform,original_app_version\nc1,ios,300\n"),
            FixtureFile(
                "customers.txt",
                "transaction_id,customer_id,product_id,product_type,purchase_date\n"
                    + "t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z\n"),
            FixtureFile("a.csv", "\n  \t[{\"customer_id\": \"c2\", \"platform\": \"ios\"}]"),
            FixtureFile(
                "b.csv",
                "\n{\"transaction_id\": \"t2\", \"customer_id\": \"c2\", \"product_id\": \"pro.lifetime\", "
                    + "\"product_type\": \"non_consumable\", \"purchase_date\": \"2024-05-01T00:00:00Z\"}\n"),
        ])
        #expect(run.input("transactions.csv")?.kind == .customers)
        #expect(run.input("transactions.csv")?.format == .csv)
        #expect(run.input("customers.txt")?.kind == .transactions)
        #expect(run.input("a.csv")?.format == .jsonArray)
        #expect(run.input("a.csv")?.kind == .customers)
        #expect(run.input("b.csv")?.format == .jsonLines)
        #expect(run.input("b.csv")?.kind == .transactions)
        #expect(run.customerClass("c1") == .subscriber)
        #expect(run.customerClass("c2") == .subscriber)
        #expect(run.flags("c1") == [])
    }

    @Test("the kind sharing more fields wins, even with a field of the other kind")
    func moreSharedFields() throws {
        // customer_id and environment belong to both kinds: 4 customer fields against 3.
        let run = try AuditFixture.run([
            FixtureFile("c.csv", "customer_id,environment,platform,storefront,product_id\nc1,production,ios,US,x\n")
        ])
        #expect(run.input("c.csv")?.kind == .customers)
        #expect(run.ids == ["c1"])
    }

    @Test(
        "a tie, no known field at all, or an empty file is a run error naming the file",
        arguments: [
            "customer_id,environment\nc1,production\n",
            "foo,bar\n1,2\n",
            "{\"customer_id\": \"c1\", \"environment\": \"production\"}\n",
            "[{\"customer_id\": \"c1\", \"environment\": \"sandbox\", \"storefront\": \"US\", \"product_id\": \"p\"}]",
            "[{\"note\": 1}]",
            "",
            "\n\n  \n",
            "\u{FEFF}",
        ])
    func unrecognisable(contents: String) throws {
        let error = try #require(
            AuditFixture.failure([
                FixtureFile("customers.csv", "customer_id,platform\nc1,ios\n"),
                FixtureFile("odd.csv", contents),
            ]))
        guard case .input(let file, _, _) = error else {
            Issue.record("not an input error: \(error)")
            return
        }
        #expect(file.hasSuffix("/odd.csv"))
        #expect(error.exitCode == 2)
        #expect(error.description.contains("odd.csv"))
        #expect(!error.description.contains("\n"))
    }
}
