import Foundation

/// Every hostile or careless input the tool is known to meet, one row each: the hardening
/// issue's findings (14.1–14.6) and the cases the README listed before it (`earlier`).
/// `HostileCatalogueTests` runs each against the built binary and checks that the README's
/// table is this one (`RECORD_DOCS=1 scripts/test` rewrites it).
enum HostileCatalogue {
    /// The range every instant must lie in, as reasons state it.
    static let range = "is outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z"

    static let transactionsHeader = "transaction_id,customer_id,product_id,product_type,purchase_date"

    static let cases: [HostileCase] =
        unreadableFiles + policyFiles + wholeFileRefusals + commandLine + rows
        + instants + appStore + streamsAndFolders + testHooks + friction

    // MARK: - Inputs that cannot be taken at all: exit 2, nothing written

    static let unreadableFiles: [HostileCase] = [
        HostileCase(
            input: "an input path that does not exist", origin: "earlier",
            make: { _ in .audit(["good.csv", "nowhere.csv"]) },
            exit: 2, stderr: .line("error: nowhere.csv: input file not found"), keepsLatest: true),
        HostileCase(
            input: "an input that is a FIFO nobody writes to", origin: "earlier",
            make: { cli in
                guard mkfifo(cli.path("pipe.csv"), 0o600) == 0 else { throw POSIXError(.EIO) }
                return .audit(["good.csv", "pipe.csv"])
            }, exit: 2, stderr: .line("error: pipe.csv: input is not a regular file"), keepsLatest: true),
        HostileCase(
            input: "an input that is a folder", origin: "earlier",
            make: { cli in
                try FileManager.default.createDirectory(
                    atPath: cli.path("folder.csv"), withIntermediateDirectories: false)
                return .audit(["good.csv", "folder.csv"])
            }, exit: 2, stderr: .line("error: folder.csv: input is a directory, not a file"), keepsLatest: true),
        HostileCase(
            input: "an input that is a device (`/dev/zero`)", origin: "earlier",
            make: { _ in .audit(["good.csv", "/dev/zero"]) },
            exit: 2, stderr: .line("error: /dev/zero: input is not a regular file"), keepsLatest: true),
        HostileCase(
            input: "an input that is a symbolic link loop", origin: "14.4",
            make: { cli in
                try FileManager.default.createSymbolicLink(
                    atPath: cli.path("loop.csv"), withDestinationPath: "loop.csv")
                return .audit(["good.csv", "loop.csv"])
            }, exit: 2, stderr: .line("error: loop.csv: input is a symbolic link loop"), keepsLatest: true),
        HostileCase(
            input: "an input that cannot be read (mode 000)", origin: "14.4",
            make: { cli in
                try cli.write("secret.csv", "customer_id,platform\nc1,ios\n")
                return .script(
                    "chmod 000 secret.csv && \(HostileCase.asUnprivileged) validate --policy policy.json secret.csv")
            }, exit: 2, stderr: .line("error: secret.csv: input is not readable (permission denied)"),
            keepsLatest: false),
    ]

    static let policyFiles: [HostileCase] = [
        HostileCase(
            input: "a policy path that does not exist", origin: "earlier",
            make: { _ in .arguments(["audit", "--policy", "nowhere.json", "--out", "out", "good.csv"]) }, exit: 2,
            stderr: .line("error: nowhere.json: policy file not found"), keepsLatest: true),
        HostileCase(
            input: "a policy that is a folder", origin: "earlier",
            make: { cli in
                try FileManager.default.createDirectory(atPath: cli.path("rules"), withIntermediateDirectories: false)
                return .arguments(["audit", "--policy", "rules", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .line("error: rules: policy is a directory, not a file"), keepsLatest: true),
        HostileCase(
            input: "a policy that is a FIFO", origin: "earlier",
            make: { cli in
                guard mkfifo(cli.path("rules.json"), 0o600) == 0 else { throw POSIXError(.EIO) }
                return .arguments(["audit", "--policy", "rules.json", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .line("error: rules.json: policy is not a regular file"), keepsLatest: true),
        HostileCase(
            input: "a policy that is a device (`/dev/zero`)", origin: "earlier",
            make: { _ in .arguments(["audit", "--policy", "/dev/zero", "--out", "out", "good.csv"]) }, exit: 2,
            stderr: .line("error: /dev/zero: policy is not a regular file"), keepsLatest: true),
        HostileCase(
            input: "a policy that is a symbolic link loop", origin: "14.4",
            make: { cli in
                try FileManager.default.createSymbolicLink(
                    atPath: cli.path("loop.json"), withDestinationPath: "loop.json")
                return .arguments(["audit", "--policy", "loop.json", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .line("error: loop.json: policy is a symbolic link loop"), keepsLatest: true),
        HostileCase(
            input: "a policy that cannot be read (mode 000)", origin: "14.4",
            make: { cli in
                try cli.write("secret.json", HostileCase.policy)
                return .script(
                    "chmod 000 secret.json && \(HostileCase.asUnprivileged) validate --policy secret.json good.csv")
            }, exit: 2, stderr: .line("error: secret.json: policy is not readable (permission denied)"),
            keepsLatest: false),
        HostileCase(
            input: "a policy over 16 MiB", origin: "earlier",
            make: { cli in
                try cli.write(
                    "big.json", head: "{\"name\": \"", repeating: UInt8(ascii: "x"), count: 17 << 20, tail: "\"}")
                return .arguments(["audit", "--policy", "big.json", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .line("big.json: error: policy file larger than 16 MiB"), keepsLatest: true),
        HostileCase(
            input: "a policy nested 10,000 levels deep", origin: "earlier",
            make: { cli in
                let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
                try cli.write("deep.json", "{\"cutover\": \(deep)}")
                return .arguments(["audit", "--policy", "deep.json", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .line("deep.json:1:524: error: nesting deeper than 512 levels"), keepsLatest: true),
        HostileCase(
            input: "a 10,000-digit number in the policy", origin: "earlier",
            make: { cli in
                try cli.write(
                    "huge.json",
                    "{\"cutover\": {\"date\": \"2024-03-01T00:00:00Z\", \"versions\": {\"default\": \"245\"}},\n"
                        + "\"grandfathered_entitlements\": [\"premium\"],\n\"edge_window_hours\": "
                        + String(repeating: "9", count: 10_000) + "}\n")
                return .arguments(["audit", "--policy", "huge.json", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .line("huge.json:3:22: error: edge_window_hours: number out of range"),
            keepsLatest: true),
    ]

    static let wholeFileRefusals: [HostileCase] = [
        HostileCase(
            input: "an empty input", origin: "earlier",
            make: { cli in
                try cli.write("odd.csv", "")
                return .audit(["good.csv", "odd.csv"])
            }, exit: 2, stderr: .line("odd.csv: error: empty file: no header or record to recognise"), keepsLatest: true
        ),
        HostileCase(
            input: "an input of a byte-order mark only", origin: "earlier",
            make: { cli in
                try cli.write("odd.csv", bytes: [0xEF, 0xBB, 0xBF])
                return .audit(["good.csv", "odd.csv"])
            }, exit: 2, stderr: .line("odd.csv: error: empty file: no header or record to recognise"), keepsLatest: true
        ),
        HostileCase(
            input: "an input of blanks only", origin: "earlier",
            make: { cli in
                try cli.write("odd.csv", " \n\r\n\t\n")
                return .audit(["good.csv", "odd.csv"])
            }, exit: 2, stderr: .line("odd.csv: error: empty file: no header or record to recognise"), keepsLatest: true
        ),
        HostileCase(
            input: "a CSV header of more than 65,536 columns", origin: "earlier",
            make: { cli in
                let names = ["customer_id", "platform"] + (0..<70_000).map { "x\($0)" }
                try cli.write("wide.csv", names.joined(separator: ",") + "\nc1,ios\n")
                return .audit(["good.csv", "wide.csv"])
            }, exit: 2, stderr: .line("wide.csv:1: error: header has more than 65536 columns"), keepsLatest: true),
        HostileCase(
            input: "JSON nested 10,000 levels in the only record", origin: "earlier",
            make: { cli in
                let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
                try cli.write("deep.jsonl", "{\"customer_id\": \"c1\", \"platform\": \"ios\", \"x\": \(deep)}\n")
                return .audit(["good.csv", "deep.jsonl"])
            }, exit: 2,
            stderr: .line(
                "deep.jsonl: error: no JSON object to recognise the record kind from: malformed JSON at 1:558: nesting deeper than 512 levels"
            ), keepsLatest: true),
        HostileCase(
            input: "a pretty-printed JSON object (neither an array nor JSON Lines)", origin: "14.6",
            make: { cli in
                try cli.write("pretty.json", "{\n  \"customer_id\": \"c1\",\n  \"platform\": \"ios\"\n}\n")
                return .audit(["good.csv", "pretty.json"])
            }, exit: 2,
            stderr: .line(
                "pretty.json:1: error: the first JSON object does not end on its line: an object spread over several lines is neither JSON Lines (one object a line) nor a JSON array; write one object a line, or wrap the objects in [ ]"
            ), keepsLatest: true),
    ]

    // MARK: - The command line

    static let commandLine: [HostileCase] = [
        HostileCase(
            input: "an input name that is not UTF-8", origin: "14.4",
            make: { _ in
                .script(
                    #"name="$(printf 'bad\377.csv')"; printf 'customer_id,platform\nc1,ios\n' > "$name"; "#
                        + #"exec "$GRANDFATHER" audit --policy policy.json --out out "$name""#)
            }, exit: 2,
            stderr: .lineContaining("is not valid UTF-8; file and folder names must be UTF-8"), keepsLatest: true),
        HostileCase(
            input: "an `--out` name that is not UTF-8", origin: "14.4",
            make: { _ in
                .script(#"exec "$GRANDFATHER" audit --policy policy.json --out "$(printf 'out\377')" good.csv"#)
            }, exit: 2, stderr: .lineContaining("is not valid UTF-8; file and folder names must be UTF-8"),
            checks: [.absent("out\u{FFFD}")], keepsLatest: true),
        HostileCase(
            input: "an input name holding a terminal escape sequence", origin: "14.3",
            make: { _ in .audit(["good.csv", "a\u{1B}[31mred.csv"]) }, exit: 2,
            stderr: .line("error: a\\x1B[31mred.csv: input file not found"), keepsLatest: true),
        HostileCase(
            input: "`--as-of -1700000000000` (a negative instant without `=`)", origin: "14.6",
            make: { _ in .arguments(HostileCase.auditArguments.dropLast(4) + ["--as-of", "-1700000000000", "good.csv"])
            },
            exit: 2, stderr: .lineContaining("a value that starts with '-' goes after '=': --as-of=-1700000000000"),
            keepsLatest: false),
    ]

    // MARK: - Rows rejected with a reason: exit 0

    static let rows: [HostileCase] = [
        HostileCase(
            input: "a header-only file", origin: "earlier",
            make: { cli in
                try cli.write("t.csv", transactionsHeader + "\r\n")
                return .audit(["good.csv", "t.csv"])
            }, exit: 0, stderr: .empty, checks: [.stdout("1 customer (")], keepsLatest: false),
        HostileCase(
            input: "a NUL byte in a known field", origin: "earlier",
            make: { cli in
                try cli.write("nul.csv", bytes: Array("customer_id,platform\nc\u{0}1,ios\n".utf8))
                return .audit(["good.csv", "nul.csv"])
            }, exit: 0, stderr: .empty, checks: [.rejected("customer_id contains a NUL byte")], keepsLatest: false),
        HostileCase(
            input: "invalid UTF-8 in a known field", origin: "earlier",
            make: { cli in
                try cli.write(
                    "utf.csv", bytes: Array("customer_id,platform\n".utf8) + [0x63, 0xFF] + Array(",ios\n".utf8))
                return .audit(["good.csv", "utf.csv"])
            }, exit: 0, stderr: .empty, checks: [.rejected("customer_id is not valid UTF-8")], keepsLatest: false),
        HostileCase(
            input: "a 10 MB value in a known field", origin: "earlier",
            make: { cli in
                try cli.write("big.csv", "customer_id,platform\nc\(String(repeating: "x", count: 10 << 20)),ios\n")
                return .audit(["good.csv", "big.csv"])
            }, exit: 0, stderr: .empty, checks: [.rejected("customer_id is longer than 65536 bytes")],
            keepsLatest: false),
        HostileCase(
            input: "a 100 MB line with no line end", origin: "earlier",
            make: { cli in
                try cli.write(
                    "huge.csv", head: "customer_id,platform\nc1,ios\nc2,", repeating: UInt8(ascii: "x"),
                    count: 100 << 20)
                return .audit(["huge.csv"])
            }, exit: 0, stderr: .empty, checks: [.rejected("platform is longer than 65536 bytes")], keepsLatest: false),
        HostileCase(
            input: "10,000 columns, and a row of another field count", origin: "earlier",
            make: { cli in
                let names = (0..<9_998).map { "x\($0)" } + ["customer_id", "platform"]
                let filler = String(repeating: "v,", count: 9_998)
                try cli.write("wide.csv", names.joined(separator: ",") + "\n\(filler)c1,ios\n\(filler)c2,ios,extra\n")
                return .audit(["wide.csv"])
            }, exit: 0, stderr: .empty, checks: [.rejected("10001 fields, header has 10000")], keepsLatest: false),
        HostileCase(
            input: "JSON nested 10,000 levels in a JSON Lines record", origin: "earlier",
            make: { cli in
                let deep = String(repeating: "{\"a\": ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
                try cli.write(
                    "deep.jsonl",
                    "{\"customer_id\": \"c1\", \"platform\": \"ios\"}\n{\"customer_id\": \"c2\", \"x\": \(deep)}\n")
                return .audit(["deep.jsonl"])
            }, exit: 0, stderr: .empty, checks: [.rejected("nesting deeper than 512 levels")], keepsLatest: false),
        HostileCase(
            input: "JSON nested 10,000 levels in a JSON array's element", origin: "earlier",
            make: { cli in
                let deep = String(repeating: "{\"a\": ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
                try cli.write(
                    "deep.json",
                    "[{\"customer_id\": \"c1\", \"platform\": \"ios\"},\n{\"customer_id\": \"c2\", \"platform\": \(deep)}]\n"
                )
                return .audit(["deep.json"])
            }, exit: 0, stderr: .empty,
            checks: [.rejected("nesting deeper than 512 levels; the rest of the file is one rejected row")],
            keepsLatest: false),
        HostileCase(
            input: "a 10,000-digit JSON number as a timestamp", origin: "earlier",
            make: { cli in
                try cli.write(
                    "n.jsonl",
                    "{\"transaction_id\": \"t1\", \"customer_id\": \"good\", \"product_id\": \"p\", \"product_type\": \"consumable\", "
                        + "\"purchase_date\": \(String(repeating: "9", count: 10_000))}\n")
                return .audit(["good.csv", "n.jsonl"])
            }, exit: 0, stderr: .empty, checks: [.rejected("purchase_date: timestamp '9999")], keepsLatest: false),
        HostileCase(
            input: "a CSV quote still open at the end of the file", origin: "earlier",
            make: { cli in
                try cli.write("quote.csv", "customer_id,platform\nc1,ios\nc2,\"ios")
                return .audit(["quote.csv"])
            }, exit: 0, stderr: .empty,
            checks: [.rejected("quoted field never closes; the rest of the file is one rejected row")],
            keepsLatest: false),
    ]

    // MARK: - Instants outside 0001–9999 (14.2)

    static func customerWith(_ field: String, _ value: String) -> @Sendable (CLI) throws -> HostileCase.Invocation {
        { cli in
            try cli.write("c.csv", "customer_id,platform,\(field)\nc1,ios,\(value)\nc2,ios,2024-01-01T00:00:00Z\n")
            return .audit(["good.csv", "c.csv"])
        }
    }

    static func transactionWith(_ purchase: String, type: String = "non_renewing")
        -> @Sendable (CLI) throws -> HostileCase.Invocation
    {
        { cli in
            try cli.write(
                "t.csv",
                transactionsHeader + "\nt1,good,p,\(type),\(purchase)\nt2,good,p,consumable,2024-01-01T00:00:00Z\n")
            return .audit(["good.csv", "t.csv"])
        }
    }

    static let instants: [HostileCase] = [
        HostileCase(
            input: "epoch ms `-9223372036854775` as `original_purchase_date`", origin: "14.2",
            make: customerWith("original_purchase_date", "-9223372036854775"), exit: 0, stderr: .empty,
            checks: [
                .rejected("original_purchase_date: timestamp '-9223372036854775' \(range)"), .explainsEveryCustomer,
            ],
            keepsLatest: false),
        HostileCase(
            input: "epoch ms `253402300800000` (year 10000) as `purchase_date`", origin: "14.2",
            make: transactionWith("253402300800000"), exit: 0, stderr: .empty,
            checks: [.rejected("purchase_date: timestamp '253402300800000' \(range)"), .explainsEveryCustomer],
            keepsLatest: false),
        HostileCase(
            input: "year `0000` as `original_purchase_date`", origin: "14.2",
            make: customerWith("original_purchase_date", "0000-06-01T00:00:00Z"), exit: 0, stderr: .empty,
            checks: [.rejected("timestamp '0000-06-01T00:00:00Z' \(range)")], keepsLatest: false),
        HostileCase(
            input: "an offset that carries 9999-12-31 into year 10000", origin: "14.2",
            make: customerWith("original_purchase_date", "9999-12-31T23:59:59-01:00"), exit: 0, stderr: .empty,
            checks: [.rejected("timestamp '9999-12-31T23:59:59-01:00' \(range)")], keepsLatest: false),
        HostileCase(
            input: "a non-renewing purchase whose term ends after 9999", origin: "14.2",
            make: transactionWith("9999-12-01T00:00:00Z"), exit: 0, stderr: .empty,
            checks: [.explainsEveryCustomer], keepsLatest: false),
        HostileCase(
            input: "`cutover.date` of epoch ms `-9223372036854775`", origin: "14.2",
            make: { cli in
                try cli.write(
                    "p.json",
                    HostileCase.policy.replacingOccurrences(of: "2024-03-01T00:00:00Z", with: "-9223372036854775"))
                return .arguments(["audit", "--policy", "p.json", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .lineContaining("cutover.date: timestamp '-9223372036854775' \(range)"),
            keepsLatest: true),
        HostileCase(
            input: "`cutover.date` in year 0000", origin: "14.2",
            make: { cli in
                try cli.write(
                    "p.json",
                    HostileCase.policy.replacingOccurrences(of: "2024-03-01T00:00:00Z", with: "0000-03-01T00:00:00Z"))
                return .arguments(["audit", "--policy", "p.json", "--out", "out", "good.csv"])
            }, exit: 2, stderr: .lineContaining("cutover.date: timestamp '0000-03-01T00:00:00Z' \(range)"),
            keepsLatest: true),
        HostileCase(
            input: "`--as-of=-62135596800001` (before year 1)", origin: "14.2",
            make: { _ in
                .arguments(["audit", "--policy", "policy.json", "--as-of=-62135596800001", "--out", "out", "good.csv"])
            },
            exit: 2, stderr: .line("error: --as-of: timestamp '-62135596800001' \(range)"), keepsLatest: true),
        HostileCase(
            input: "`--as-of 253402300800000` (year 10000)", origin: "14.2",
            make: { _ in
                .arguments([
                    "audit", "--policy", "policy.json", "--as-of", "253402300800000", "--out", "out", "good.csv",
                ])
            },
            exit: 2, stderr: .line("error: --as-of: timestamp '253402300800000' \(range)"), keepsLatest: true),
    ]

    // MARK: - App Store payloads that vouch for themselves (14.1)

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A JWS of `payload` with `alg: none` and a garbage signature.
    static func forged(_ payload: String) -> String {
        base64URL(#"{"alg":"none"}"#) + "." + base64URL(payload) + ".AAAA"
    }

    static let appStore: [HostileCase] = [
        HostileCase(
            input: "a transaction JWS with `alg: none` that says it is Xcode data", origin: "14.1",
            make: { cli in
                try cli.write(
                    "forged.txt",
                    forged(
                        #"{"transactionId":"1","originalTransactionId":"1","productId":"p","type":"Non-Consumable","purchaseDate":1700000000000,"signedDate":1700000001000,"environment":"Xcode","appTransactionId":"good"}"#
                    ) + "\n")
                return .audit(["good.csv", "forged.txt"])
            }, exit: 0, stderr: .empty,
            checks: [.rejected(#"alg is ""none"", not ES256; the payload says Xcode, whose data is self-signed"#)],
            keepsLatest: false),
        HostileCase(
            input: "an app transaction JWS with `alg: none` and `receiptType: Xcode`", origin: "14.1",
            make: { cli in
                try cli.write(
                    "forged.txt",
                    forged(
                        #"{"appTransactionId":"good","originalApplicationVersion":"1","receiptType":"Xcode","receiptCreationDate":1700000000000,"originalPlatform":"iOS"}"#
                    ) + "\n")
                return .audit(["good.csv", "forged.txt"])
            }, exit: 0, stderr: .empty,
            checks: [.rejected(#"alg is ""none"", not ES256; the payload says Xcode, whose data is self-signed"#)],
            keepsLatest: false),
        HostileCase(
            input: "a JWS whose `signedDate` is in year 10000", origin: "14.2",
            make: { cli in
                try cli.write(
                    "forged.txt",
                    forged(
                        #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":1700000000000,"signedDate":253402300800000}"#
                    )
                        + "\n")
                return .audit(["good.csv", "forged.txt"])
            }, exit: 0, stderr: .empty, checks: [.rejected("signedDate: timestamp '253402300800000' \(range)")],
            keepsLatest: false),
    ]

    // MARK: - Streams and the output folder (14.4)

    static let streamsAndFolders: [HostileCase] = [
        HostileCase(
            input: "`grandfather flags > /dev/full`", origin: "14.4",
            make: { _ in .script(#"exec "$GRANDFATHER" flags > /dev/full"#) }, exit: 1,
            stderr: .line("error: cannot write to standard output: No space left on device"), keepsLatest: false),
        HostileCase(
            input: "`grandfather validate … > /dev/full`", origin: "14.4",
            make: { _ in .script(#"exec "$GRANDFATHER" validate --policy policy.json good.csv > /dev/full"#) }, exit: 1,
            stderr: .line("error: cannot write to standard output: No space left on device"), keepsLatest: false),
        HostileCase(
            input: "`DIR/latest` that is a regular file", origin: "14.4",
            make: { cli in
                try cli.write("out/latest", "not a link\n")
                return .audit(["good.csv", "/dev/zero"])
            }, exit: 1,
            stderr: .line(
                "out/latest: error: is not a symbolic link; Grandfather switches latest by renaming a link over it, so move this aside"
            ), checks: [.file("out/latest", contains: "not a link")], keepsLatest: false),
        HostileCase(
            input: "`--out` below a regular file", origin: "14.4",
            make: { cli in
                try cli.write("file", "x")
                return .arguments(["audit", "--policy", "policy.json", "--out", "file/sub", "good.csv"])
            }, exit: 1, stderr: .line("file/sub: error: cannot create folder (at file): it is a file, not a folder"),
            keepsLatest: false),
        HostileCase(
            input: "`--out /proc/` (a folder no file can be made in)", origin: "14.4",
            make: { _ in .arguments(["audit", "--policy", "policy.json", "--out", "/proc/", "good.csv"]) }, exit: 1,
            stderr: .lineContaining("/proc/.lock: error: cannot open the lock file: "), keepsLatest: false),
    ]

    // MARK: - Test hooks (14.5)

    static func withVariable(_ variable: String, _ value: String) -> @Sendable (CLI) throws -> HostileCase.Invocation {
        { _ in
            .script(
                "\(variable)=\(value) exec \"$GRANDFATHER\" "
                    + HostileCase.auditArguments.joined(separator: " ") + " good.csv")
        }
    }

    static let testHooks: [HostileCase] = [
        HostileCase(
            input: "`GRANDFATHER_TEST_KILL_AT=after-ingest` in the environment", origin: "14.5",
            make: withVariable("GRANDFATHER_TEST_KILL_AT", "after-ingest"), exit: 0, stderr: .empty,
            checks: [.stdout("→ out/latest")], keepsLatest: false),
        HostileCase(
            input: "`GRANDFATHER_TEST_FAIL_AT=after-reports` in the environment", origin: "14.5",
            make: withVariable("GRANDFATHER_TEST_FAIL_AT", "after-reports"), exit: 0, stderr: .empty,
            checks: [.stdout("→ out/latest")], keepsLatest: false),
        HostileCase(
            input: "`GRANDFATHER_TEST_PAUSE_AT=after-ingest` in the environment", origin: "14.5",
            make: withVariable("GRANDFATHER_TEST_PAUSE_AT", "after-ingest"), exit: 0, stderr: .empty,
            checks: [.stdout("→ out/latest")], keepsLatest: false),
    ]

    // MARK: - Friction a first-time user met (14.6)

    static let friction: [HostileCase] = [
        HostileCase(
            input: "`grandfather audit --help`: one default for `--wait`", origin: "14.6",
            make: { _ in .arguments(["audit", "--help"]) }, exit: 0, stderr: .empty,
            checks: [.stdout("fails at once. (default: 0.0)"), .stdoutLacks("(default: fail at once)")],
            keepsLatest: false),
        HostileCase(
            input: "`grandfather explain good --snapshot out` (an output folder)", origin: "14.6",
            make: { _ in .arguments(["explain", "good", "--snapshot", "out"]) }, exit: 0, stderr: .empty,
            checks: [.stdout("good")], keepsLatest: true),
        HostileCase(
            input: "two purchases granting one entitlement", origin: "14.6",
            make: { cli in
                try cli.write(
                    "t.csv",
                    transactionsHeader
                        + ",expires_date\nt1,good,p,auto_renewable,2024-05-01T00:00:00Z,2024-07-01T00:00:00Z\n"
                        + "t2,good,q,auto_renewable,2024-05-02T00:00:00Z,2024-07-02T00:00:00Z\n")
                return .audit(["good.csv", "t.csv"])
            }, exit: 0, stderr: .empty,
            checks: [.file("out/latest/customers.csv", contains: "premium:purchase:t1;premium:purchase:t2")],
            keepsLatest: false),
        HostileCase(
            input: "`grandfather validate` of one row", origin: "14.6",
            make: { _ in .arguments(["validate", "--policy", "policy.json", "good.csv"]) }, exit: 0, stderr: .empty,
            checks: [.stdout("1 row read, 1 accepted, 0 rejected (0 exact duplicates"), .stdout("1 customer (")],
            keepsLatest: false),
    ]
}
