import Foundation
import Testing

@_spi(TestHooks) @testable import GrandfatherCore
@testable import GrandfatherEngine

/// `grandfather normalize`: the records `audit` accepts, in the warehouse layout.
@Suite struct NormalizeTests {
    /// Writes `files` and a policy into a fresh folder and normalizes them into `folder/out`.
    static func normalize(
        _ files: [FixtureFile], policy: PolicySpec = PolicySpec(), asOf: String = AuditFixture.defaultAsOf,
        ingest: IngestOptions = IngestOptions(), into given: URL? = nil
    ) throws -> (folder: URL, out: URL, written: NormalizedFolder.Written) {
        let folder =
            given
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "grandfather-normalize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (loaded, inputs) = try AuditFixture.install(files, policy: policy, in: folder)
        guard case .success(let instant) = TimestampParser(defaultZone: nil).parse(asOf) else {
            throw GrandfatherError.usage("as-of")
        }
        var hooks = TestHooks()
        hooks.ingest = ingest
        let out = folder.appendingPathComponent("out")
        let written = try NormalizedFolder.write(
            AuditSettings(policy: loaded, asOf: instant), inputs: inputs, out: out.path, progress: nil, hooks: hooks)
        return (folder, out, written)
    }

    static func options(parts: Int, minimumPartSize: Int) -> IngestOptions {
        var options = IngestOptions()
        options.parts = parts
        options.minimumPartSize = minimumPartSize
        return options
    }

    static func lines(_ url: URL, _ name: String) throws -> [String] {
        let text = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The transactions' rows, part after part, each part's header checked and left out.
    static func transactionRows(_ url: URL) throws -> [String] {
        let parts = WarehouseLayout.transactions.files(in: url.path)
        #expect(!parts.isEmpty)
        var rows: [String] = []
        for part in parts {
            let lines = try Self.lines(url, URL(fileURLWithPath: part).lastPathComponent)
            #expect(lines.first == WarehouseLayout.transactions.columns.map(\.name).joined(separator: ","), "\(part)")
            rows += lines.dropFirst()
        }
        return rows
    }

    @Test func everyAcceptedTransactionRowIsWrittenPlainly() throws {
        let customers = """
            customer_id,platform,original_app_version,original_purchase_date,environment
            "a,b",ios,200,2023-01-01T00:00:00Z,production
            =cmd,IOS,300,,
            """
        let transactions = #"""
            transaction_id,customer_id,product_id,product_type,purchase_date,price,environment,ownership_type
            t1,"a,b",pro.monthly,Auto_Renewable,2024-01-01T00:00:00+01:00,04.990,,
            t1,"a,b",pro.monthly,auto_renewable,2024-01-01T00:00:00+01:00,4.99,,
            t2,=cmd,coins.100,consumable,1704067200000,1,Xcode,family_shared
            t3,=cmd,coins.100,consumable,not a time,1,,
            t4,orphan,"say ""hi""",non_consumable,2024-01-02T00:00:00.5Z,,,
            """#
        let run = try Self.normalize([
            FixtureFile("customers.csv", customers), FixtureFile("transactions.csv", transactions),
        ])
        defer { try? FileManager.default.removeItem(at: run.folder) }
        // Few rows: one part, and no file of the parsers' left beside it.
        #expect(
            WarehouseLayout.transactions.files(in: run.out.path) == [
                run.out.appendingPathComponent("transactions-00001.csv").path
            ])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: run.out.path).filter { $0.hasPrefix(".segment") }
                .isEmpty)
        let rows = try Self.transactionRows(run.out)
        // The exact duplicate and the sandbox row are rows too; the bad timestamp is not.
        #expect(
            rows == [
                "t1,,\"a,b\",pro.monthly,auto_renewable,2023-12-31T23:00:00.000000Z,,,purchased,production,4.99,,,,false,,canonical",
                "t1,,\"a,b\",pro.monthly,auto_renewable,2023-12-31T23:00:00.000000Z,,,purchased,production,4.99,,,,false,,canonical",
                "t2,,=cmd,coins.100,consumable,2024-01-01T00:00:00.000000Z,,,family_shared,sandbox,1,,,,false,,canonical",
                "t4,,orphan,\"say \"\"hi\"\"\",non_consumable,2024-01-02T00:00:00.500000Z,,,purchased,production,,,,,false,,canonical",
            ])
        #expect(run.written.transactions == 4)
        let customerRows = try Self.lines(run.out, "customers.csv")
        #expect(
            Array(customerRows.dropFirst()) == [
                "=cmd,ios,300,,production,,,false,false,false,customers_file,false,,false",
                "\"a,b\",ios,200,2023-01-01T00:00:00.000000Z,production,,,false,false,false,customers_file,false,,false",
                "orphan,,,,production,,,true,false,false,,false,,false",
            ])
        let rejected = try Self.lines(run.out, "rejected.csv")
        #expect(rejected.count == 2)
        #expect(
            rejected[1].hasSuffix("transactions.csv,5,5,purchase_date,purchase_date: invalid timestamp 'not a time'"))
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: run.out.appendingPathComponent("manifest.json")))
        let inputs = (manifest as? [String: Any])?["inputs"] as? [[String: Any]]
        #expect(inputs?.map { $0["rows_read"] as? Int } == [2, 5])
        let schema = try String(contentsOf: run.out.appendingPathComponent("schema.sql"), encoding: .utf8)
        #expect(schema.contains("CREATE TABLE transactions (\n    transaction_id VARCHAR NOT NULL,"))
    }

    /// Parsers of many ranges at once write the same rows, in the same order, as one parser;
    /// only where the parts are cut may differ.
    @Test func rowOrderDoesNotDependOnHowTheFileWasCut() throws {
        var transactions = "transaction_id,customer_id,product_id,product_type,purchase_date\n"
        for index in 0..<3000 {
            let second = index % 60 < 10 ? "0\(index % 60)" : "\(index % 60)"
            transactions += "t\(index),c\(index % 97),pro.monthly,auto_renewable,2024-01-01T00:00:\(second)Z\n"
        }
        let files = [FixtureFile("transactions.csv", transactions)]
        let whole = try Self.normalize(files, ingest: Self.options(parts: 1, minimumPartSize: 1 << 30))
        defer { try? FileManager.default.removeItem(at: whole.folder) }
        let cut = try Self.normalize(files, ingest: Self.options(parts: 24, minimumPartSize: 512))
        defer { try? FileManager.default.removeItem(at: cut.folder) }
        // The rejected rows name their folders, which differ.
        for table in WarehouseLayout.inputTables where !table.inParts {
            let left = try Data(contentsOf: whole.out.appendingPathComponent(table.fileName))
            let right = try Data(contentsOf: cut.out.appendingPathComponent(table.fileName))
            #expect(left.count == right.count && left == right, "\(table.fileName) differs")
        }
        let rows = try Self.transactionRows(cut.out)
        #expect(rows.count == 3000)
        #expect(rows == (try Self.transactionRows(whole.out)))
    }

    /// Rows past what a segment holds in memory go to its own file, which becomes a part as it
    /// is; the small segments between are written together as parts of their own. Read in
    /// their numbers' order, the parts give the rows in input order. The segments' files are
    /// written past the page cache in whole blocks, the rest of a block waiting for the next
    /// rows; also on tmpfs (`/dev/shm`), which kernels before 6.6 refuse `O_DIRECT` for.
    @Test(arguments: [nil, "/dev/shm"] as [String?])
    func largeSegmentsBecomePartsAsTheyAre(under base: String?) throws {
        if let base, !FileManager.default.isWritableFile(atPath: base) { return }
        let folder = base.map {
            URL(fileURLWithPath: $0).appendingPathComponent("grandfather-normalize-\(UUID().uuidString)")
        }
        let count = 100_000
        var big = "transaction_id,customer_id,product_id,product_type,purchase_date\n"
        for index in 0..<count {
            big +=
                "big-\(index)-\(String(repeating: "x", count: 40)),c\(index % 997),pro.monthly,auto_renewable,2024-01-01T00:00:00Z\n"
        }
        let small =
            "transaction_id,customer_id,product_id,product_type,purchase_date\ns1,c1,coins,consumable,2024-01-01T00:00:00Z\n"
        let run = try Self.normalize(
            [
                FixtureFile("a.csv", small), FixtureFile("b.csv", big),
                FixtureFile("c.csv", small.replacingOccurrences(of: "s1", with: "s2")),
            ],
            ingest: Self.options(parts: 2, minimumPartSize: 1 << 20), into: folder)
        defer { try? FileManager.default.removeItem(at: run.folder) }
        let parts = WarehouseLayout.transactions.files(in: run.out.path).map {
            URL(fileURLWithPath: $0).lastPathComponent
        }
        #expect(parts.count >= 3)
        #expect(parts == (1...parts.count).map(WarehouseLayout.transactions.partName))
        let rows = try Self.transactionRows(run.out)
        let ids = rows.map { String($0.prefix { $0 != "," }) }
        #expect(ids.count == count + 2)
        #expect(ids.first == "s1" && ids.last == "s2")
        #expect(
            Array(ids.dropFirst().dropLast()) == (0..<count).map { "big-\($0)-\(String(repeating: "x", count: 40))" })
        #expect(run.written.transactions == count + 2)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: run.out.path).filter { $0.hasPrefix(".segment") }
                .isEmpty)
    }

    /// A run without one accepted transaction still writes the table: one part, its header.
    @Test func noTransactionsWriteOneHeaderPart() throws {
        let run = try Self.normalize([FixtureFile("customers.csv", "customer_id,platform\nc1,ios\n")])
        defer { try? FileManager.default.removeItem(at: run.folder) }
        #expect(try Self.transactionRows(run.out).isEmpty)
        #expect(WarehouseLayout.transactions.files(in: run.out.path).count == 1)
    }

    /// A folder normalize wrote is replaced whole; any other is left alone.
    @Test func replacesOnlyItsOwnFolder() throws {
        let files = [FixtureFile("customers.csv", "customer_id,platform\nc1,ios\n")]
        let first = try Self.normalize(files)
        defer { try? FileManager.default.removeItem(at: first.folder) }
        let second = try Self.normalize(
            [FixtureFile("customers.csv", "customer_id,platform\nc1,ios\nc2,macos\n")], into: first.folder)
        #expect(second.written.customers == 2)
        #expect(try Self.lines(second.out, "customers.csv").count == 3)
        // The lock file stays, as `DIR/.lock` does: every run locks the same inode.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: first.folder.path).filter {
            $0.hasPrefix(".") && $0 != ".out.normalize.lock"
        }
        #expect(leftovers.isEmpty)

        let other = first.folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: other.appendingPathComponent("notes.txt"))
        let policy = try PolicyLoader.load(path: first.folder.appendingPathComponent("policy.json").path)
        #expect(throws: GrandfatherError.self) {
            try NormalizedFolder.write(
                AuditSettings(policy: policy, asOf: Instant(seconds: 1_700_000_000)),
                inputs: [first.folder.appendingPathComponent("customers.csv").path], out: other.path, progress: nil,
                hooks: TestHooks())
        }
        #expect(try String(contentsOf: other.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
    }
}
