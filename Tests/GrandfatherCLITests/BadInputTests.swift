import Foundation
import GRDB
import Testing

/// Hostile and broken inputs, through the binary as cron runs it: each has one defined outcome,
/// either rows rejected with a reason (exit 0) or a one-line error with exit code 2 and nothing
/// written, always within a time limit (a hang is killed and fails the test) and in bounded
/// memory. Generated into the test's folder; the 100 MB case takes a second or two.
///
/// Covered elsewhere and not repeated here: a missing input path
/// (`AuditCommandTests.missingInputIsExit2`), a quote that never closes in mid-file
/// (`CSVReaderTests`), a tie or unknown kind (`InputRecognizerTests`).
@Suite struct BadInputTests {
    static let policy = """
        {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "245"}},
         "grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1}
        """

    /// A folder with the policy and one good customers file, `good.csv`.
    static func folder() throws -> CLI {
        let cli = try CLI()
        try cli.write("policy.json", policy)
        try cli.write("good.csv", "customer_id,platform\ngood,ios\n")
        return cli
    }

    static func audit(_ cli: CLI, _ inputs: [String], policy: String = "policy.json") throws -> CLI.BoundedResult {
        let result = try cli.runBounded(
            ["audit", "--policy", policy, "--as-of", "2024-06-01T00:00:00Z", "--out", "out"] + inputs, limit: 60)
        #expect(!result.timedOut, "the run hung and was killed")
        return result
    }

    /// The rejected rows of the latest run: file, line, field and reason.
    static func rejections(_ cli: CLI) throws -> [String] {
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        return try dump.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT file, line, field, reason FROM rejected_rows ORDER BY file, line").map {
                let field: String? = $0["field"]
                let (file, line, reason): (String, Int, String) = ($0["file"], $0["line"], $0["reason"])
                return "\(file):\(line) \(field ?? "-"): \(reason)"
            }
        }
    }

    static func customerIDs(_ cli: CLI) throws -> [String] {
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        return try dump.queue.read { db in
            try String.fetchAll(db, sql: "SELECT customer_id FROM customers ORDER BY customer_id")
        }
    }

    /// Runs `inputs` after a good run and expects exit 2 with exactly `message` on one line,
    /// and the good run untouched: `latest` and the visible run folders as they were.
    static func expectRefused(
        _ cli: CLI, _ inputs: [String], policy: String = "policy.json", message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let good = try audit(cli, ["good.csv"])
        try #require(good.status == 0, "\(good.stderr)", sourceLocation: sourceLocation)
        let target = cli.latestTarget()
        let runs = cli.runFolders().filter { !$0.hasPrefix(".") }
        let before = try cli.contents(of: "out/latest")

        let result = try audit(cli, inputs, policy: policy)
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == "grandfather: " + message + "\n", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(cli.latestTarget() == target, sourceLocation: sourceLocation)
        #expect(cli.runFolders().filter { !$0.hasPrefix(".") } == runs, "no run folder", sourceLocation: sourceLocation)
        #expect(try cli.contents(of: "out/latest") == before, sourceLocation: sourceLocation)
    }

    // MARK: - Files that cannot be taken at all: exit 2

    @Test(
        "an empty, BOM-only or blank input cannot be recognised: exit 2",
        arguments: [[], [0xEF, 0xBB, 0xBF], Array(" \n\r\n\t\n".utf8)] as [[UInt8]])
    func emptyInputs(bytes: [UInt8]) throws {
        let cli = try Self.folder()
        try cli.write("odd.csv", bytes: bytes)
        try Self.expectRefused(
            cli, ["good.csv", "odd.csv"], message: "odd.csv: error: empty file: no header or record to recognise")
    }

    @Test("a FIFO or a folder given as input is refused without being read: exit 2")
    func inputThatIsNotARegularFile() throws {
        let cli = try Self.folder()
        try #require(mkfifo(cli.path("pipe.csv"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: cli.path("folder.csv"), withIntermediateDirectories: false)
        // Nobody ever writes to the FIFO: opening it for reading would block forever.
        try Self.expectRefused(cli, ["good.csv", "pipe.csv"], message: "error: pipe.csv: input is not a regular file")
        try Self.expectRefused(
            cli, ["good.csv", "folder.csv"], message: "error: folder.csv: input is a directory, not a file")
    }

    @Test("a policy that is a folder, a FIFO or a device is refused: exit 2")
    func policyThatIsNotARegularFile() throws {
        let cli = try Self.folder()
        try FileManager.default.createDirectory(atPath: cli.path("rules"), withIntermediateDirectories: false)
        try #require(mkfifo(cli.path("rules.json"), 0o600) == 0)
        try Self.expectRefused(
            cli, ["good.csv"], policy: "rules", message: "error: rules: policy is a directory, not a file")
        try Self.expectRefused(
            cli, ["good.csv"], policy: "rules.json", message: "error: rules.json: policy is not a regular file")
        try Self.expectRefused(
            cli, ["good.csv"], policy: "/dev/zero", message: "error: /dev/zero: policy is not a regular file")
    }

    @Test("a header of more than 65,536 columns: exit 2, in bounded memory")
    func tooManyHeaderColumns() throws {
        let cli = try Self.folder()
        let names = ["customer_id", "platform"] + (0..<70_000).map { "x\($0)" }
        try cli.write(
            "wide.csv", names.joined(separator: ",") + "\nc1,ios" + String(repeating: ",", count: 70_000) + "\n")
        try Self.expectRefused(
            cli, ["good.csv", "wide.csv"], message: "wide.csv:1: error: header has more than 65536 columns")
    }

    @Test("deeply nested JSON as the only record, or as the policy: exit 2 naming the nesting")
    func deeplyNestedJSONThatLeavesNothingToRead() throws {
        let cli = try Self.folder()
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        try cli.write("deep.jsonl", "{\"customer_id\": \"c1\", \"platform\": \"ios\", \"x\": \(deep)}\n")
        try Self.expectRefused(
            cli, ["good.csv", "deep.jsonl"],
            message:
                "deep.jsonl: error: no JSON object to recognise the record kind from: "
                + "malformed JSON at 1:558: nesting deeper than 512 levels")
        try cli.write("deep.json", "{\"cutover\": \(deep)}")
        try Self.expectRefused(
            cli, ["good.csv"], policy: "deep.json",
            message: "deep.json:1:524: error: nesting deeper than 512 levels")
    }

    @Test("a 10,000-digit number in the policy: exit 2 naming the key")
    func tenThousandDigitPolicyNumber() throws {
        let cli = try Self.folder()
        try cli.write(
            "huge.json",
            "{\"cutover\": {\"date\": \"2024-03-01T00:00:00Z\", \"versions\": {\"default\": \"245\"}},\n"
                + "\"grandfathered_entitlements\": [\"premium\"],\n\"edge_window_hours\": "
                + String(repeating: "9", count: 10_000) + "}\n")
        try Self.expectRefused(
            cli, ["good.csv"], policy: "huge.json",
            message: "huge.json:3:22: error: edge_window_hours: number out of range")
    }

    // MARK: - Rows rejected with a reason: exit 0

    @Test("NUL bytes: a known field holding one rejects its row; no NUL reaches the outputs")
    func nulBytes() throws {
        let cli = try Self.folder()
        try cli.write(
            "nul.csv",
            bytes: Array("customer_id,platform,note\nc\u{0}1,ios,\nc2,i\u{0}os,\nc3,ios,n\u{0}ote\n".utf8))
        try cli.write("nul.jsonl", "{\"customer_id\": \"c\\u00004\", \"platform\": \"ios\"}\n")
        let result = try Self.audit(cli, ["nul.csv", "nul.jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Self.rejections(cli) == [
                "nul.csv:2 customer_id: customer_id contains a NUL byte",
                "nul.csv:3 platform: unknown platform 'i\\x00os'",
                "nul.jsonl:1 customer_id: customer_id contains a NUL byte",
            ])
        #expect(try Self.customerIDs(cli) == ["c3"], "a NUL in an unknown column is left alone")
        for name in ["customers.csv", "rejected.csv", "summary.md", "summary.json"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/" + name)))
            #expect(!bytes.contains(0), "\(name) holds no NUL byte")
        }
    }

    @Test("invalid UTF-8 in a field rejects its row alone, in CSV, JSON Lines and JSON arrays")
    func invalidUTF8() throws {
        let cli = try Self.folder()
        try cli.write(
            "utf.csv",
            bytes: Array("customer_id,platform,note\n".utf8) + [0x63, 0xFF, 0x2C] + Array("ios,\nc2,ios,\n".utf8))
        // With an escape in the same string too: still one rejected row, not a syntax error.
        let broken = Array("{\"customer_id\": \"c\\\"3".utf8) + [0xC3] + Array("\", \"platform\": \"ios\"}".utf8)
        try cli.write(
            "utf.jsonl", bytes: broken + [0x0A] + Array("{\"customer_id\": \"c4\", \"platform\": \"ios\"}\n".utf8))
        try cli.write(
            "utf.json", bytes: [0x5B] + broken + Array(",\n{\"customer_id\": \"c5\", \"platform\": \"ios\"}]".utf8))
        let result = try Self.audit(cli, ["utf.csv", "utf.jsonl", "utf.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Self.rejections(cli) == [
                "utf.csv:2 customer_id: customer_id is not valid UTF-8",
                "utf.json:1 customer_id: customer_id is not valid UTF-8",
                "utf.jsonl:1 customer_id: customer_id is not valid UTF-8",
            ])
        #expect(try Self.customerIDs(cli) == ["c2", "c4", "c5"])
    }

    @Test("a 10 MB field: ignored in an unknown column, else its row is rejected with a short reason")
    func tenMegabyteField() throws {
        let cli = try Self.folder()
        let big = String(repeating: "x", count: 10 << 20)
        try cli.write(
            "big.csv",
            "customer_id,platform,note\nc1,ios,\(big)\nc\(big),ios,\nc3,\(big),\n\"c4\",ios,\"\(big)\"\n")
        try cli.write("big.jsonl", "{\"customer_id\": \"c5\", \"platform\": \"ios\", \"storefront\": \"\(big)\"}\n")
        let result = try Self.audit(cli, ["big.csv", "big.jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Self.rejections(cli) == [
                "big.csv:3 customer_id: customer_id is longer than 65536 bytes",
                "big.csv:4 platform: platform is longer than 65536 bytes",
                "big.jsonl:1 storefront: storefront is longer than 65536 bytes",
            ])
        #expect(try Self.customerIDs(cli) == ["c1", "c4"])
        let rejected = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/rejected.csv")))
        #expect(rejected.count < 1024, "reasons never quote the value whole")
        #expect(result.peakMiB < 200, "peak \(result.peakMiB) MiB")
    }

    @Test(
        "a 100 MB line with no line end is one rejected row, read in under 300 MiB",
        arguments: [
            (
                "huge.csv", "customer_id,platform\nc1,ios\nc2,",
                "huge.csv:3 platform: platform is longer than 65536 bytes"
            ),
            (
                "huge.jsonl",
                "{\"transaction_id\": \"t1\", \"customer_id\": \"c1\", \"product_id\": \"p\", "
                    + "\"product_type\": \"consumable\", \"purchase_date\": 1709251200000}\n{\"transaction_id\": \"",
                "huge.jsonl:2 -: malformed JSON at column 104857621: unterminated string"
            ),
        ])
    func hundredMegabyteLine(name: String, head: String, rejection: String) throws {
        let cli = try Self.folder()
        try cli.write(name, head: head, repeating: UInt8(ascii: "x"), count: 100 << 20)
        let result = try Self.audit(cli, [name])
        print("\(name): 100 MB line, peak RSS \(String(format: "%.1f", result.peakMiB)) MiB, \(result.seconds) s")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.peakMiB > 100, "the line was held once, and measured (\(result.peakMiB) MiB)")
        #expect(result.peakMiB < 300, "peak \(result.peakMiB) MiB")
        #expect(try Self.rejections(cli) == [rejection])
        #expect(try Self.customerIDs(cli) == ["c1"])
    }

    @Test("10,000 columns are read; a row with one field too few or too many, or 20 million, is rejected")
    func tenThousandColumns() throws {
        let cli = try Self.folder()
        let names = (0..<9_998).map { "x\($0)" } + ["customer_id", "platform"]
        let filler = String(repeating: "v,", count: 9_998)
        try cli.write(
            "wide.csv",
            names.joined(separator: ",") + "\n\(filler)c1,ios\n\(filler)c2,ios,extra\nv,c3,ios\n\(filler)c4,ios\n")
        // Fields beyond the header's count are counted, not kept: a line of 20 million costs nothing.
        try cli.write(
            "commas.csv", head: "customer_id,platform\nc5,ios\nc6", repeating: UInt8(ascii: ","), count: 20_000_000,
            tail: "\n")
        let result = try Self.audit(cli, ["wide.csv", "commas.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Self.rejections(cli) == [
                "commas.csv:3 -: 20000001 fields, header has 2",
                "wide.csv:3 -: 10001 fields, header has 10000",
                "wide.csv:4 -: 3 fields, header has 10000",
            ])
        #expect(try Self.customerIDs(cli) == ["c1", "c4", "c5"])
        #expect(result.peakMiB < 100, "peak \(result.peakMiB) MiB")
    }

    @Test("deeply nested JSON in a record rejects that record (JSON Lines) or the rest of the file (an array)")
    func deeplyNestedJSONInARecord() throws {
        let cli = try Self.folder()
        let deep = String(repeating: "{\"a\": ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        try cli.write(
            "deep.jsonl",
            "{\"customer_id\": \"c1\", \"platform\": \"ios\"}\n{\"customer_id\": \"c2\", \"platform\": \"ios\", \"x\": \(deep)}\n"
                + "{\"customer_id\": \"c3\", \"platform\": \"ios\"}\n")
        try cli.write(
            "deep.json",
            "[{\"customer_id\": \"c4\", \"platform\": \"ios\"},\n{\"customer_id\": \"c5\", \"platform\": \(deep)},\n"
                + "{\"customer_id\": \"c6\", \"platform\": \"ios\"}]\n")
        let result = try Self.audit(cli, ["deep.jsonl", "deep.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Self.rejections(cli) == [
                "deep.json:2 -: malformed JSON at 2:3101: nesting deeper than 512 levels; the rest of the file is one rejected row",
                "deep.jsonl:2 -: malformed JSON at column 3113: nesting deeper than 512 levels",
            ])
        #expect(try Self.customerIDs(cli) == ["c1", "c3", "c4"])
    }

    @Test("a 10,000-digit JSON number: kept as text where text is asked for, else the row is rejected")
    func tenThousandDigitNumber() throws {
        let cli = try Self.folder()
        let digits = String(repeating: "9", count: 10_000)
        try cli.write(
            "numbers.jsonl",
            "{\"customer_id\": \"c1\", \"platform\": \"ios\", \"original_app_version\": \(digits), \"x\": \(digits)}\n")
        try cli.write(
            "numbers.json",
            "[{\"transaction_id\": \(digits), \"customer_id\": \"c1\", \"product_id\": \"p\", \"product_type\": \"consumable\", "
                + "\"purchase_date\": 1709251200000, \"price\": \(digits).5},\n"
                + "{\"transaction_id\": \"t2\", \"customer_id\": \"c1\", \"product_id\": \"p\", \"product_type\": \"consumable\", "
                + "\"purchase_date\": \(digits)}]\n")
        let result = try Self.audit(cli, ["numbers.jsonl", "numbers.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let excerpt = String(repeating: "9", count: 64) + "…"
        #expect(
            try Self.rejections(cli) == [
                "numbers.json:2 purchase_date: purchase_date: timestamp '\(excerpt)' is outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z"
            ])
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        #expect(try dump.text("SELECT length(original_app_version) FROM customers WHERE customer_id = 'c1'") == "10000")
        #expect(try dump.verdicts()["c1"]?.flags == ["consumable_only"])
    }

    @Test(
        "a quote left open or stray at the end of the file",
        arguments: [
            ("c2,\"ios", "quote.csv:3 -: quoted field never closes; the rest of the file is one rejected row"),
            ("c2,\"ios\"x", "quote.csv:3 -: quoted field never closes; the rest of the file is one rejected row"),
            ("c2,\"ios\r\n\r\n", "quote.csv:3 -: quoted field never closes; the rest of the file is one rejected row"),
            ("c2,ios\"", "quote.csv:3 platform: unknown platform 'ios\"'"),
            ("\"", "quote.csv:3 -: quoted field never closes; the rest of the file is one rejected row"),
        ])
    func quoteAtEndOfFile(last: String, rejection: String) throws {
        let cli = try Self.folder()
        try cli.write("quote.csv", "customer_id,platform\nc1,ios\n" + last)
        let result = try Self.audit(cli, ["quote.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.rejections(cli) == [rejection])
        #expect(try Self.customerIDs(cli) == ["c1"])
    }

    @Test("a header-only file has no rows: exit 0, read 0")
    func headerOnly() throws {
        let cli = try Self.folder()
        try cli.write("t.csv", "transaction_id,customer_id,product_id,product_type,purchase_date\r\n")
        try cli.write("c.csv", "\u{FEFF}customer_id,platform")
        let result = try Self.audit(cli, ["good.csv", "t.csv", "c.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("1 customer ("), "\(result.stdout)")
        #expect(result.stdout.contains("; 1 row read, 0 rejected"), "\(result.stdout)")
        #expect(try Self.rejections(cli).isEmpty)
    }
}
