import Crypto
import Foundation
import GrandfatherTestSupport
import Testing

@_spi(TestHooks) @testable import GrandfatherCore
@testable import GrandfatherEngine

/// Gzip-compressed inputs, told by their first two bytes, audit exactly as what they inflate
/// to; reports give the files as they are on disk; data that does not inflate cleanly fails
/// the run with one line naming the file. (Opening one, and each way gzip data is refused:
/// GrandfatherEngineTests' `GzipSourceTests` and `GzipInputErrorTests`.)
@Suite struct GzipInputTests {
    /// What a run made of its inputs, naming files without `.gz`: each customer's verdict,
    /// each file's accounting and each rejected row.
    static func outcome(_ run: FixtureRun) -> [String] {
        let name = { (path: String) in
            URL(fileURLWithPath: path).lastPathComponent.replacingOccurrences(of: ".gz", with: "")
        }
        let verdicts = run.audit.customers.map { result in
            let grants = result.entitlements.map {
                "\($0.entitlement):\($0.source.rawValue):\($0.transactionID ?? "")"
            }
            return "\(result.customer.id) \(result.customerClass) \(result.flags.map(\.code)) \(grants)"
        }
        let files = run.audit.inputs.map {
            "\(name($0.path)) \($0.format.rawValue) \($0.kind.rawValue) read \($0.rowsRead) accepted \($0.rowsAccepted) "
                + "rejected \($0.rowsRejected) duplicates \($0.exactDuplicates) sandbox \($0.sandboxRows) "
                + "superseded \($0.superseded)"
        }
        let rejections = run.audit.rejections.map {
            "\(name($0.file)):\($0.line):\($0.column.map(String.init) ?? "-") \($0.field ?? "-") \($0.reason)"
        }
        return verdicts + files + rejections
    }

    /// The hex SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// A fresh folder for files the test looks at after the run; the test removes it.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Customers (with a byte-order mark inside the compressed data) and transactions with
    /// quoted line breaks, rejected rows and duplicates.
    static let customers = "\u{FEFF}" + ParallelIngestTests.customersCSV
    static let transactions = ParallelIngestTests.transactionsCSV()

    @Test("gzipped canonical CSV files audit as the plain files; reports give the files as on disk")
    func canonicalCSV() throws {
        let plain = try AuditFixture.run([
            FixtureFile("customers.csv", Self.customers), FixtureFile("transactions.csv", Self.transactions),
        ])
        let customers = Gzip.member(Array(Self.customers.utf8))
        let transactions = Gzip.member(Array(Self.transactions.utf8), level: 9)
        let gzipped = try AuditFixture.run([
            FixtureFile("customers.csv.gz", bytes: customers), FixtureFile("transactions.csv.gz", bytes: transactions),
        ])
        #expect(Self.outcome(gzipped) == Self.outcome(plain))
        #expect(plain.audit.rejections.count == 12)
        #expect(plain.audit.customers.count == 97)  // 90 listed, 7 known by transactions only

        let report = try #require(gzipped.input("transactions.csv.gz"))
        #expect(report.format == .csv)
        #expect(report.kind == .transactions)
        #expect(report.sha256 == Self.sha256(transactions))
        #expect(report.sizeBytes == Int64(transactions.count))
        #expect(gzipped.input("customers.csv.gz")?.sha256 == Self.sha256(customers))
        #expect(plain.input("transactions.csv")?.sha256 == Self.sha256(Array(Self.transactions.utf8)))
    }

    @Test("gzipped JSON arrays and JSON Lines audit as the plain files")
    func canonicalJSON() throws {
        let customers =
            "[\n"
            + (0..<20).map {
                "{\"customer_id\": \"c\($0)\", \"platform\": \"ios\", \"original_app_version\": "
                    + "\"\($0 % 2 == 0 ? "200" : "300")\"}"
            }.joined(separator: ",\n") + "\n]\n"
        let transactions =
            (0..<40).map {
                "{\"transaction_id\": \"t\($0)\", \"customer_id\": \"c\($0 % 20)\", \"product_id\": \"pro.monthly\", "
                    + "\"product_type\": \"auto_renewable\", \"purchase_date\": \"2024-05-0\(1 + $0 % 9)T10:00:00Z\", "
                    + "\"expires_date\": \"\($0 % 3 == 0 ? "2024-07-01T00:00:00Z" : "nope")\"}"
            }.joined(separator: "\n") + "\n"
        let plain = try AuditFixture.run([
            FixtureFile("customers.json", customers), FixtureFile("transactions.jsonl", transactions),
        ])
        let gzipped = try AuditFixture.run([
            FixtureFile("customers.json.gz", bytes: Gzip.member(Array(customers.utf8))),
            FixtureFile("transactions.jsonl.gz", bytes: Gzip.member(Array(transactions.utf8))),
        ])
        #expect(Self.outcome(gzipped) == Self.outcome(plain))
        #expect(gzipped.input("customers.json.gz")?.format == .jsonArray)
        #expect(gzipped.input("transactions.jsonl.gz")?.format == .jsonLines)
        #expect(gzipped.audit.rejections.count > 0)
    }

    @Test("compression is told by content, not by name")
    func toldByContent() throws {
        let run = try AuditFixture.run([
            FixtureFile("customers.csv.gz", Self.customers),
            FixtureFile("transactions.csv", bytes: Gzip.member(Array(Self.transactions.utf8))),
        ])
        let plain = try AuditFixture.run([
            FixtureFile("customers.csv", Self.customers), FixtureFile("transactions.csv", Self.transactions),
        ])
        #expect(Self.outcome(run) == Self.outcome(plain))
    }

    @Test("several gzip members, an empty one among them, read as one file")
    func concatenatedMembers() throws {
        let bytes = Array(Self.transactions.utf8)
        let cut = bytes.count / 2  // inside a line: members are cut at bytes, not records
        let members = Gzip.member(Array(bytes[..<cut])) + Gzip.member([]) + Gzip.member(Array(bytes[cut...]))
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("transactions.csv.gz").path
        try Data(members).write(to: URL(fileURLWithPath: path))
        let source = try ByteSource(path: path)
        #expect(source.readsDecodedCopy)
        #expect(source.size == bytes.count)
        #expect(source.storedSize == members.count)
        #expect(try source.readAll() == bytes)
        #expect(try source.sha256() == Self.sha256(members))

        let plain = try AuditFixture.run([
            FixtureFile("customers.csv", Self.customers), FixtureFile("transactions.csv", Self.transactions),
        ])
        let gzipped = try AuditFixture.run([
            FixtureFile("customers.csv", Self.customers), FixtureFile("transactions.csv.gz", bytes: members),
        ])
        #expect(Self.outcome(gzipped) == Self.outcome(plain))
    }

    /// Transactions of several MiB: with a UTF-8 byte-order mark, some rejected rows and
    /// exact duplicates.
    static func largeTransactions() -> String {
        var text = "\u{FEFF}transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,price\n"
        for index in 0..<70_000 {
            let day = 1 + index % 28
            let purchase =
                index % 997 == 0 ? "someday" : "2024-05-\(day < 10 ? "0" : "")\(day)T\(10 + index % 12):00:00Z"
            let expires = index % 3 == 0 ? "2024-07-01T00:00:00Z" : "2024-05-30T00:00:00Z"
            let id = index % 1_009 == 0 ? "t\(index - 1)" : "t\(index)"
            text += "\(id),c\(index % 5_000),pro.monthly,auto_renewable,\(purchase),\(expires),4.99\n"
        }
        return text
    }

    @Test("a large gzipped file is cut into ranges read at once, as the plain file is")
    func largeFileInRanges() throws {
        let transactions = Self.largeTransactions()
        let customers =
            "customer_id,platform,original_app_version\n"
            + (0..<5_000).map { "c\($0),ios,\($0 % 2 == 0 ? "200" : "300")\n" }.joined()
        let options = IngestOptions(parts: 8, minimumPartSize: 256 << 10)
        let gzippedBytes = Gzip.member(Array(transactions.utf8))
        #expect(transactions.utf8.count > 5 << 20)

        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gzipped = try AuditFixture.run(
            [FixtureFile("customers.csv", customers), FixtureFile("transactions.csv.gz", bytes: gzippedBytes)],
            in: folder, ingest: options)
        let plain = try AuditFixture.run(
            [FixtureFile("customers.csv", customers), FixtureFile("transactions.csv", transactions)], ingest: options)
        #expect(Self.outcome(gzipped) == Self.outcome(plain))
        #expect(plain.input("transactions.csv")?.rowsRejected == 71)
        #expect(plain.input("transactions.csv")?.exactDuplicates == 0)

        let source = try ByteSource(path: gzipped.path("transactions.csv.gz"))
        #expect(source.dataStart == 3)
        let ranges = try RecordSplitter.ranges(
            for: source, layout: .csv, parts: options.parts, minimumPartSize: options.minimumPartSize)
        #expect(ranges.count > 1)
        #expect(InflatedFiles.inflations(ofFileAt: gzipped.path("transactions.csv.gz")) == 1)
    }

    @Test("a whole run inflates each gzip input once, however often it opens it")
    func inflatedOnce() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A customer of its own makes the files unlike any other test's.
        let customers = Self.customers + "u-\(UUID().uuidString),ios,300\n"
        let run = try AuditFixture.run(
            [
                FixtureFile("customers.csv.gz", bytes: Gzip.member(Array(customers.utf8))),
                FixtureFile("transactions.csv.gz", bytes: Gzip.member(Array((Self.transactions + "\r\n").utf8))),
            ], in: folder, ingest: IngestOptions(parts: 8, minimumPartSize: 4 << 10))
        #expect(InflatedFiles.inflations(ofFileAt: run.path("customers.csv.gz")) == 1)
        #expect(InflatedFiles.inflations(ofFileAt: run.path("transactions.csv.gz")) == 1)
        // Opened again, it is still the one copy.
        _ = try ByteSource(path: run.path("transactions.csv.gz"))
        #expect(InflatedFiles.inflations(ofFileAt: run.path("transactions.csv.gz")) == 1)
    }

    @Test("a run with a corrupt gzip input fails with the file's one line, exit 2")
    func corruptInputFailsTheRun() throws {
        let member = Gzip.member(Array(AuditFixture.customers("ann", "bob", "cat").utf8))
        let error = try #require(
            AuditFixture.failure([
                FixtureFile("customers.csv", AuditFixture.customers("ann")),
                FixtureFile("transactions.csv.gz", bytes: Array(member.dropLast(1))),
            ]))
        #expect(error.exitCode == 2)
        let truncated = "gzip data is truncated: the file ends inside a gzip member"
        #expect(error.description.hasSuffix("/transactions.csv.gz: error: \(truncated)"), "\(error)")
    }
}
