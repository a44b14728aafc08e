import Foundation

/// Every hostile or careless input the tool is known to meet, one row each: the hardening
/// issues' findings (14.1–14.6, 33.1–33.12) and the cases the README listed before them (now docs/Hardening.md)
/// (`earlier`).
/// `HostileCatalogueTests` runs each against the built binary and checks that docs/Hardening.md's
/// table is this one (`RECORD_DOCS=1 scripts/test` rewrites it).
enum HostileCatalogue {
    /// The range every instant must lie in, as reasons state it.
    static let range = "is outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z"

    static let transactionsHeader = "transaction_id,customer_id,product_id,product_type,purchase_date"

    static let cases: [HostileCase] =
        unreadableFiles + policyFiles + wholeFileRefusals + commandLine + rows
        + instants + appStore + streamsAndFolders + testHooks + friction + merges + resultsFolders + readers
        + normalizeFolders + sqlOptions + storeReports + kit

    // MARK: - Inputs that cannot be taken at all: exit 2, nothing written

    /// Makes a FIFO nobody ever writes to (reading it would block forever).
    static func fifo(_ cli: CLI, _ name: String) throws {
        guard mkfifo(cli.path(name), 0o600) == 0 else { throw POSIXError(.EIO) }
    }

    static func folder(_ cli: CLI, _ name: String) throws {
        try FileManager.default.createDirectory(atPath: cli.path(name), withIntermediateDirectories: false)
    }

    static func loop(_ cli: CLI, _ name: String) throws {
        try FileManager.default.createSymbolicLink(atPath: cli.path(name), withDestinationPath: name)
    }

    /// `validate` of a file made unreadable, as nobody when the tests run as root.
    static func unreadable(_ name: String, policy: String) -> HostileCase.Invocation {
        .script(
            "chmod 000 \(name) && \(HostileCase.asUnprivileged) validate --policy \(policy) good.csv"
                + (name.hasSuffix(".csv") ? " \(name)" : ""))
    }

    static let unreadableFiles: [HostileCase] = [
        .refused("an input path that does not exist", "earlier", .line("error: nowhere.csv: input file not found")) {
            _ in .audit(["good.csv", "nowhere.csv"])
        },
        .refused(
            "an input that is a FIFO nobody writes to", "earlier", .line("error: pipe.csv: input is not a regular file")
        ) {
            try fifo($0, "pipe.csv")
            return .audit(["good.csv", "pipe.csv"])
        },
        .refused("an input that is a folder", "earlier", .line("error: folder.csv: input is a directory, not a file")) {
            try folder($0, "folder.csv")
            return .audit(["good.csv", "folder.csv"])
        },
        .refused(
            "an input that is a device (`/dev/zero`)", "earlier", .line("error: /dev/zero: input is not a regular file")
        ) {
            _ in .audit(["good.csv", "/dev/zero"])
        },
        .refused(
            "an input that is a symbolic link loop", "14.4", .line("error: loop.csv: input is a symbolic link loop")
        ) {
            try loop($0, "loop.csv")
            return .audit(["good.csv", "loop.csv"])
        },
        HostileCase(
            input: "an input that cannot be read (mode 000)", origin: "14.4",
            make: { cli in
                try cli.write("secret.csv", "customer_id,platform\nc1,ios\n")
                return unreadable("secret.csv", policy: "policy.json")
            }, exit: 2, stderr: .line("error: secret.csv: input is not readable (permission denied)"),
            keepsLatest: false),
    ]

    static let policyFiles: [HostileCase] = [
        .refused("a policy path that does not exist", "earlier", .line("error: nowhere.json: policy file not found")) {
            _ in HostileCase.underPolicy("nowhere.json")
        },
        .refused("a policy that is a folder", "earlier", .line("error: rules: policy is a directory, not a file")) {
            try folder($0, "rules")
            return HostileCase.underPolicy("rules")
        },
        .refused("a policy that is a FIFO", "earlier", .line("error: rules.json: policy is not a regular file")) {
            try fifo($0, "rules.json")
            return HostileCase.underPolicy("rules.json")
        },
        .refused(
            "a policy that is a device (`/dev/zero`)", "earlier",
            .line("error: /dev/zero: policy is not a regular file")
        ) {
            _ in HostileCase.underPolicy("/dev/zero")
        },
        .refused(
            "a policy that is a symbolic link loop", "14.4", .line("error: loop.json: policy is a symbolic link loop")
        ) {
            try loop($0, "loop.json")
            return HostileCase.underPolicy("loop.json")
        },
        HostileCase(
            input: "a policy that cannot be read (mode 000)", origin: "14.4",
            make: { cli in
                try cli.write("secret.json", HostileCase.policy)
                return unreadable("secret.json", policy: "secret.json")
            }, exit: 2, stderr: .line("error: secret.json: policy is not readable (permission denied)"),
            keepsLatest: false),
        .refused("a policy over 16 MiB", "earlier", .line("big.json: error: policy file larger than 16 MiB")) {
            try $0.write("big.json", head: "{\"name\": \"", repeating: UInt8(ascii: "x"), count: 17 << 20, tail: "\"}")
            return HostileCase.underPolicy("big.json")
        },
        .refused(
            "a policy nested 10,000 levels deep", "earlier",
            .line("deep.json:1:524: error: nesting deeper than 512 levels")
        ) {
            try $0.write("deep.json", "{\"cutover\": \(String(repeating: "[", count: 10_000))}")
            return HostileCase.underPolicy("deep.json")
        },
        .refused(
            "a 10,000-digit number in the policy", "earlier",
            .line("huge.json:3:22: error: edge_window_hours: number out of range")
        ) {
            try $0.write(
                "huge.json",
                "{\"cutover\": {\"date\": \"2024-03-01T00:00:00Z\", \"versions\": {\"default\": \"245\"}},\n"
                    + "\"grandfathered_entitlements\": [\"premium\"],\n\"edge_window_hours\": "
                    + String(repeating: "9", count: 10_000) + "}\n")
            return HostileCase.underPolicy("huge.json")
        },
    ]

    static let empty = HostileCase.Stderr.line("odd.csv: error: empty file: no header or record to recognise")

    static let wholeFileRefusals: [HostileCase] = [
        .refused("an empty input", "earlier", empty, make: HostileCase.auditing("odd.csv", "")),
        .refused(
            "an input of a byte-order mark only", "earlier", empty,
            make: HostileCase.auditing("odd.csv", bytes: [0xEF, 0xBB, 0xBF])),
        .refused("an input of blanks only", "earlier", empty, make: HostileCase.auditing("odd.csv", " \n\r\n\t\n")),
        .refused(
            "a CSV header of more than 65,536 columns", "earlier",
            .line("wide.csv:1: error: header has more than 65536 columns"),
            make: HostileCase.auditing(
                "wide.csv",
                (["customer_id", "platform"] + (0..<70_000).map { "x\($0)" }).joined(separator: ",") + "\nc1,ios\n")),
        .refused(
            "JSON nested 10,000 levels in the only record", "earlier",
            .line(
                "deep.jsonl: error: no JSON object to recognise the record kind from: malformed JSON at 1:558: nesting deeper than 512 levels"
            ),
            make: HostileCase.auditing(
                "deep.jsonl",
                "{\"customer_id\": \"c1\", \"platform\": \"ios\", \"x\": \(String(repeating: "[", count: 10_000))}\n")),
        .refused(
            "a pretty-printed JSON object (neither an array nor JSON Lines)", "14.6",
            .line(
                "pretty.json:1: error: the first JSON object does not end on its line: an object spread over several lines is neither JSON Lines (one object a line) nor a JSON array; write one object a line, or wrap the objects in [ ]"
            ),
            make: HostileCase.auditing("pretty.json", "{\n  \"customer_id\": \"c1\",\n  \"platform\": \"ios\"\n}\n")),
    ]

    // MARK: - The command line

    static let notUTF8 = HostileCase.Stderr.lineContaining("is not valid UTF-8; file and folder names must be UTF-8")

    static let commandLine: [HostileCase] = [
        .refused("an input name that is not UTF-8", "14.4", notUTF8) { _ in
            .script(
                #"name="$(printf 'bad\377.csv')"; printf 'customer_id,platform\nc1,ios\n' > "$name"; "#
                    + #"exec "$GRANDFATHER" audit --policy policy.json --out out "$name""#)
        },
        HostileCase(
            input: "an `--out` name that is not UTF-8", origin: "14.4",
            make: { _ in
                .script(#"exec "$GRANDFATHER" audit --policy policy.json --out "$(printf 'out\377')" good.csv"#)
            },
            exit: 2, stderr: notUTF8, checks: [.absent("out\u{FFFD}")], keepsLatest: true),
        .refused(
            "an input name holding a terminal escape sequence", "14.3",
            .line("error: a\\x1B[31mred.csv: input file not found")
        ) { _ in .audit(["good.csv", "a\u{1B}[31mred.csv"]) },
        HostileCase(
            input: "`--as-of -1700000000000` (a negative instant without `=`)", origin: "14.6",
            make: { _ in .arguments(["audit", "--policy", "policy.json", "--as-of", "-1700000000000", "good.csv"]) },
            exit: 2, stderr: .lineContaining("a value that starts with '-' goes after '=': --as-of=-1700000000000"),
            keepsLatest: false),
    ]

    // MARK: - Rows rejected with a reason: exit 0

    static let deepObject = String(repeating: "{\"a\": ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)

    static let rows: [HostileCase] = [
        .read(
            "a header-only file", "earlier", [.stdout("1 customer (")],
            make: HostileCase.auditing("t.csv", transactionsHeader + "\r\n")),
        .read(
            "a NUL byte in a known field", "earlier", [.rejected("customer_id contains a NUL byte")],
            make: HostileCase.auditing("nul.csv", bytes: Array("customer_id,platform\nc\u{0}1,ios\n".utf8))),
        .read(
            "invalid UTF-8 in a known field", "earlier", [.rejected("customer_id is not valid UTF-8")],
            make: HostileCase.auditing(
                "utf.csv", bytes: Array("customer_id,platform\n".utf8) + [0x63, 0xFF] + Array(",ios\n".utf8))),
        .read(
            "a 10 MB value in a known field", "earlier", [.rejected("customer_id is longer than 65536 bytes")],
            make: HostileCase.auditing(
                "big.csv", "customer_id,platform\nc\(String(repeating: "x", count: 10 << 20)),ios\n")),
        .read("a 100 MB line with no line end", "earlier", [.rejected("platform is longer than 65536 bytes")]) {
            try $0.write(
                "huge.csv", head: "customer_id,platform\nc1,ios\nc2,", repeating: UInt8(ascii: "x"), count: 100 << 20)
            return .audit(["huge.csv"])
        },
        .read(
            "10,000 columns, and a row of another field count", "earlier",
            [.rejected("10001 fields, header has 10000")],
            make: HostileCase.auditing(
                "wide.csv",
                ((0..<9_998).map { "x\($0)" } + ["customer_id", "platform"]).joined(separator: ",") + "\n"
                    + String(repeating: "v,", count: 9_998) + "c1,ios\n" + String(repeating: "v,", count: 9_998)
                    + "c2,ios,extra\n",
                alone: true)),
        .read(
            "JSON nested 10,000 levels in a JSON Lines record", "earlier",
            [.rejected("nesting deeper than 512 levels")],
            make: HostileCase.auditing(
                "deep.jsonl",
                "{\"customer_id\": \"c1\", \"platform\": \"ios\"}\n{\"customer_id\": \"c2\", \"x\": \(deepObject)}\n",
                alone: true)),
        .read(
            "JSON nested 10,000 levels in a JSON array's element", "earlier",
            [.rejected("nesting deeper than 512 levels; the rest of the file is one rejected row")],
            make: HostileCase.auditing(
                "deep.json",
                "[{\"customer_id\": \"c1\", \"platform\": \"ios\"},\n{\"customer_id\": \"c2\", \"platform\": \(deepObject)}]\n",
                alone: true)),
        .read(
            "a 10,000-digit JSON number as a timestamp", "earlier", [.rejected("purchase_date: timestamp '9999")],
            make: HostileCase.auditing(
                "n.jsonl",
                "{\"transaction_id\": \"t1\", \"customer_id\": \"good\", \"product_id\": \"p\", \"product_type\": \"consumable\", "
                    + "\"purchase_date\": \(String(repeating: "9", count: 10_000))}\n")),
        .read(
            "a CSV quote still open at the end of the file", "earlier",
            [.rejected("quoted field never closes; the rest of the file is one rejected row")],
            make: HostileCase.auditing("quote.csv", "customer_id,platform\nc1,ios\nc2,\"ios", alone: true)),
    ]

    // MARK: - Instants outside 0001–9999 (14.2)

    static func customer(originalPurchaseDate value: String) -> HostileCase.Maker {
        HostileCase.auditing(
            "c.csv", "customer_id,platform,original_purchase_date\nc1,ios,\(value)\nc2,ios,2024-01-01T00:00:00Z\n")
    }

    static func nonRenewing(purchased: String) -> HostileCase.Maker {
        HostileCase.auditing(
            "t.csv",
            transactionsHeader + "\nt1,good,p,non_renewing,\(purchased)\nt2,good,p,consumable,2024-01-01T00:00:00Z\n")
    }

    /// The standard policy with its cutover instant replaced.
    static func cutover(_ date: String) -> HostileCase.Maker {
        { cli in
            try cli.write("p.json", HostileCase.policy.replacingOccurrences(of: "2024-03-01T00:00:00Z", with: date))
            return HostileCase.underPolicy("p.json")
        }
    }

    static func asOf(_ arguments: String...) -> HostileCase.Maker {
        { _ in .arguments(["audit", "--policy", "policy.json"] + arguments + ["--out", "out", "good.csv"]) }
    }

    static let instants: [HostileCase] = [
        .read(
            "epoch ms `-9223372036854775` as `original_purchase_date`", "14.2",
            [.rejected("original_purchase_date: timestamp '-9223372036854775' \(range)"), .explainsEveryCustomer],
            make: customer(originalPurchaseDate: "-9223372036854775")),
        .read(
            "epoch ms `253402300800000` (year 10000) as `purchase_date`", "14.2",
            [.rejected("purchase_date: timestamp '253402300800000' \(range)"), .explainsEveryCustomer],
            make: nonRenewing(purchased: "253402300800000")),
        .read(
            "year `0000` as `original_purchase_date`", "14.2", [.rejected("timestamp '0000-06-01T00:00:00Z' \(range)")],
            make: customer(originalPurchaseDate: "0000-06-01T00:00:00Z")),
        .read(
            "an offset that carries 9999-12-31 into year 10000", "14.2",
            [.rejected("timestamp '9999-12-31T23:59:59-01:00' \(range)")],
            make: customer(originalPurchaseDate: "9999-12-31T23:59:59-01:00")),
        .read(
            "a non-renewing purchase whose term ends after 9999", "14.2", [.explainsEveryCustomer],
            make: nonRenewing(purchased: "9999-12-01T00:00:00Z")),
        .refused(
            "`cutover.date` of epoch ms `-9223372036854775`", "14.2",
            .lineContaining("cutover.date: timestamp '-9223372036854775' \(range)"), make: cutover("-9223372036854775")),
        .refused(
            "`cutover.date` in year 0000", "14.2",
            .lineContaining("cutover.date: timestamp '0000-03-01T00:00:00Z' \(range)"),
            make: cutover("0000-03-01T00:00:00Z")),
        .refused(
            "`--as-of=-62135596800001` (before year 1)", "14.2",
            .line("error: --as-of: timestamp '-62135596800001' \(range)"), make: asOf("--as-of=-62135596800001")),
        .refused(
            "`--as-of 253402300800000` (year 10000)", "14.2",
            .line("error: --as-of: timestamp '253402300800000' \(range)"),
            make: asOf("--as-of", "253402300800000")),
    ]

    // MARK: - App Store payloads that vouch for themselves (14.1)

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A JWS file of `payload` with `alg: none` and a garbage signature.
    static func forged(_ payload: String) -> HostileCase.Maker {
        HostileCase.auditing("forged.txt", base64URL(#"{"alg":"none"}"#) + "." + base64URL(payload) + ".AAAA\n")
    }

    static let saysXcode = #"alg is ""none"", not ES256; the payload says Xcode, whose data is self-signed"#

    static let appStore: [HostileCase] = [
        .read(
            "a transaction JWS with `alg: none` that says it is Xcode data", "14.1", [.rejected(saysXcode)],
            make: forged(
                #"{"transactionId":"1","originalTransactionId":"1","productId":"p","type":"Non-Consumable","purchaseDate":1700000000000,"signedDate":1700000001000,"environment":"Xcode","appTransactionId":"good"}"#
            )),
        .read(
            "an app transaction JWS with `alg: none` and `receiptType: Xcode`", "14.1", [.rejected(saysXcode)],
            make: forged(
                #"{"appTransactionId":"good","originalApplicationVersion":"1","receiptType":"Xcode","receiptCreationDate":1700000000000,"originalPlatform":"iOS"}"#
            )),
        .read(
            "a JWS whose `signedDate` is in year 10000", "14.2",
            [.rejected("signedDate: timestamp '253402300800000' \(range)")],
            make: forged(
                #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":1700000000000,"signedDate":253402300800000}"#
            )),
    ]

    // MARK: - Streams and the output folder (14.4)

    static let noSpace = HostileCase.Stderr.line("error: cannot write to standard output: No space left on device")

    /// `grandfather ARGUMENTS > /dev/full`: exit 1, one line, whatever the command prints.
    static func intoFullDisk(_ input: String, _ origin: String, _ arguments: String) -> HostileCase {
        HostileCase(
            input: input, origin: origin, make: { _ in .script(#"exec "$GRANDFATHER" \#(arguments) > /dev/full"#) },
            exit: 1, stderr: noSpace, keepsLatest: false)
    }

    static let streamsAndFolders: [HostileCase] = [
        intoFullDisk("`grandfather flags > /dev/full`", "14.4", "flags"),
        intoFullDisk("`grandfather validate … > /dev/full`", "14.4", "validate --policy policy.json good.csv"),
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

    /// The standard audit with `variable` set in its environment: a real run, untouched.
    static func hookIgnored(_ variable: String, _ value: String) -> HostileCase {
        .read("`\(variable)=\(value)` in the environment", "14.5", [.stdout("→ out/latest")]) { _ in
            .script(
                "\(variable)=\(value) exec \"$GRANDFATHER\" " + HostileCase.auditArguments.joined(separator: " ")
                    + " good.csv")
        }
    }

    static let testHooks: [HostileCase] = [
        hookIgnored("GRANDFATHER_TEST_KILL_AT", "after-ingest"),
        hookIgnored("GRANDFATHER_TEST_FAIL_AT", "after-reports"),
        hookIgnored("GRANDFATHER_TEST_PAUSE_AT", "after-ingest"),
    ]

    // MARK: - Friction a first-time user met (14.6)

    static let friction: [HostileCase] = [
        .read(
            "`grandfather audit --help`: one default for `--wait`", "14.6",
            [.stdout("fails at once. (default: 0.0)"), .stdoutLacks("(default: fail at once)")]
        ) { _ in .arguments(["audit", "--help"]) },
        HostileCase(
            input: "`grandfather explain good --snapshot out` (an output folder)", origin: "14.6",
            make: { _ in .arguments(["explain", "good", "--snapshot", "out"]) }, exit: 0, stderr: .empty,
            checks: [.stdout("good")], keepsLatest: true),
        .read(
            "two purchases granting one entitlement", "14.6",
            [.file("out/latest/customers.csv", contains: "premium:purchase:t1;premium:purchase:t2")],
            make: HostileCase.auditing(
                "t.csv",
                transactionsHeader
                    + ",expires_date\nt1,good,p,auto_renewable,2024-05-01T00:00:00Z,2024-07-01T00:00:00Z\n"
                    + "t2,good,q,auto_renewable,2024-05-02T00:00:00Z,2024-07-02T00:00:00Z\n")),
        HostileCase(
            input: "`--log-format json` names the inputs as given", origin: "14.6",
            make: { _ in .arguments(HostileCase.auditArguments + ["--log-format", "json", "./good.csv"]) }, exit: 0,
            stderr: .logContaining(#""inputs":["./good.csv"]"#), keepsLatest: false),
        HostileCase(
            input: "`--wait` behind a run that holds the lock for 2 s", origin: "14.6",
            make: { _ in
                .script(
                    #""$GRANDFATHER" audit --policy policy.json --out out --test-pause-at after-ingest good.csv 2>/dev/null & "#
                        + #"holder=$!; sleep 1; (sleep 2; kill -9 $holder) & "#
                        + #"exec "$GRANDFATHER" audit --policy policy.json --out out --wait 30 --log-format json good.csv"#
                )
            }, exit: 0, stderr: .logContaining(#""event":"result""#), checks: [.asOfTakenAtTheLock], keepsLatest: false),
        .read(
            "the manual page's source (`scripts/install` makes `grandfather.1` from it)", "14.6",
            [.stdout(#""commandName" : "audit""#), .stdout(#""commandName" : "explain""#)]
        ) { _ in .arguments(["--experimental-dump-help"]) },
        .read("shell completion (`scripts/install` installs it)", "14.6", [.stdout("_grandfather")]) { _ in
            .arguments(["--generate-completion-script", "bash"])
        },
        .read(
            "`grandfather validate` of one row", "14.6",
            [.stdout("1 row read, 1 accepted, 0 rejected (0 exact duplicates"), .stdout("1 customer (")]
        ) { _ in .arguments(["validate", "--policy", "policy.json", "good.csv"]) },
    ]
}
