import Foundation
import Testing

/// `sql --load DIR` reads the transactions as `normalize` writes them, numbered parts matched
/// by one pattern, and a folder an older `normalize` wrote, with one `transactions.csv`, as
/// it is.
@Suite struct WarehouseLoadTests {
    static func load(_ cli: CLI, _ folder: String, dialect: String) throws -> CLI.Result {
        try cli.run([
            "sql", "--policy", "policy.json", "--as-of", SmallData.asOf, "--dialect", dialect, "--load", folder,
        ])
    }

    @Test(arguments: ["duckdb", "spark"])
    func readsThePartsOrAnOlderFoldersOneFile(dialect: String) throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        let parts = try cli.writeLayoutFolder("parts")
        try cli.write("parts/transactions-00002.csv", "")
        let read = try Self.load(cli, parts, dialect: dialect)
        try #require(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("'\(parts)/transactions-*.csv'"), "\(read.stdout)")
        #expect(!read.stdout.contains("transactions-00001"))

        let older = try cli.writeLayoutFolder("older")
        try FileManager.default.moveItem(atPath: older + "/transactions-00001.csv", toPath: older + "/transactions.csv")
        let old = try Self.load(cli, older, dialect: dialect)
        try #require(old.status == 0, "\(old.stderr)")
        #expect(old.stdout.contains("'\(older)/transactions.csv'"), "\(old.stdout)")

        // DuckDB globs no pattern under a backslash: there the parts are listed by name.
        let slanted = try cli.writeLayoutFolder("back\\slash")
        let listed = try Self.load(cli, slanted, dialect: dialect)
        try #require(listed.status == 0, "\(listed.stderr)")
        if dialect == "duckdb" {
            #expect(listed.stdout.contains("['\(slanted)/transactions-00001.csv']"), "\(listed.stdout)")
        } else {
            #expect(listed.stdout.contains("transactions-*.csv'"), "\(listed.stdout)")
        }

        let none = try cli.writeLayoutFolder("none")
        try FileManager.default.removeItem(atPath: none + "/transactions-00001.csv")
        let refused = try Self.load(cli, none, dialect: dialect)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("no transactions-*.csv nor transactions.csv in it"), "\(refused.stderr)")
    }
}
