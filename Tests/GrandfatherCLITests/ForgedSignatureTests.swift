import Foundation
import Testing

/// Finding 1 of the hardening issue, as an attacker with a modified device would try it: copies
/// of the App Store sample's genuine records, re-signed with `alg: none` and a garbage
/// signature, saying they are Xcode data and signed later than the genuine ones. Whether they
/// are refused or (with `--accept-self-signed`) read as unverified sandbox rows, no verified
/// customer's class, flags or entitlements may move.
@Suite struct ForgedSignatureTests {
    /// The sample's policy without `apple.environment` (as in the reproduction) and with room
    /// for the forged rows' rejections.
    static let policy = """
        {
          "name": "forgery test",
          "cutover": { "date": "2025-03-04T17:00:00Z", "versions": { "ios": "412", "ipados": "412", "macos": "3.0" } },
          "grandfathered_entitlements": ["premium"],
          "products": {
            "pro.monthly": { "entitlements": ["premium"] }, "pro.yearly": { "entitlements": ["premium"] },
            "pro.lifetime": { "entitlements": ["premium"] }, "print.credits.10": { "entitlements": [] }
          },
          "edge_window_hours": 48,
          "max_rejected_fraction": 1,
          "apple": { "bundle_id": "com.example.trailmaps" }
        }
        """

    /// Audits the sample plus `extra` files (written into the folder) with `options`.
    static func audit(extra: [String: String] = [:], options: [String] = []) throws -> (CLI, CLI.Result) {
        let cli = try CLI()
        for name in AppStoreSampleTests.appleInputs + ["sample-root.der"] {
            try cli.copy(AppStoreSampleTests.folder.appendingPathComponent(name))
        }
        try cli.write("policy.json", policy)
        for (name, text) in extra { try cli.write(name, text) }
        let result = try cli.run(
            [
                "audit", "--policy", "policy.json", "--trusted-root", "sample-root.der", "--as-of",
                AppStoreSampleTests.asOf, "--out", "out",
            ] + options + AppStoreSampleTests.appleInputs + extra.keys.sorted())
        return (cli, result)
    }

    static func verdicts(_ cli: CLI) throws -> [String: Verdict] {
        try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite")).verdicts()
    }

    /// The genuine customers' verdicts, and that forging left each of them exactly so.
    static func expectUnchanged(_ cli: CLI, _ baseline: [String: Verdict], _ comment: Comment) throws {
        let after = try verdicts(cli)
        #expect(baseline.count == 8)
        for (customer, verdict) in baseline {
            #expect(after[customer] == verdict, "\(customer) \(comment)")
        }
    }

    @Test func forgedXcodeCopiesAreRefusedAndChangeNoVerifiedCustomer() throws {
        let (plain, plainResult) = try Self.audit()
        #expect(plainResult.status == 0, "\(plainResult.stderr)")
        let baseline = try Self.verdicts(plain)

        let forged = try Forgery.allForgedFiles()
        let (cli, result) = try Self.audit(extra: forged)
        #expect(result.status == 0, "\(result.stderr)")
        try Self.expectUnchanged(cli, baseline, "with forged files")
        let rejected = try String(contentsOfFile: cli.path("out/latest/rejected.csv"), encoding: .utf8)
        let lines = rejected.split(separator: "\n").dropFirst()
        #expect(lines.count == Forgery.forgedRowCount(forged), "\(rejected)")
        #expect(
            lines.allSatisfy {
                $0.contains(#"alg is ""none"", not ES256; the payload says Xcode, whose data is self-signed"#)
            }, "\(rejected)")
        let summary = try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8)
        #expect(summary.contains("self-signed Xcode/LocalTesting data refused"))
    }

    @Test func acceptedAsUnverifiedTheyStillChangeNoVerifiedCustomer() throws {
        let (plain, _) = try Self.audit()
        let baseline = try Self.verdicts(plain)
        let forged = try Forgery.allForgedFiles()
        let (cli, result) = try Self.audit(extra: forged, options: ["--accept-self-signed"])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.expectUnchanged(cli, baseline, "with forged files accepted as self-signed")
        #expect(result.stderr.contains("read as unverified sandbox data (--accept-self-signed)"))
        let summary = try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8)
        #expect(summary.contains("self-signed (unverified)"), "\(summary)")
        let json = try String(contentsOfFile: cli.path("out/latest/summary.json"), encoding: .utf8)
        #expect(json.contains(#""accept_self_signed" : true"#))
        // Every forged copy of a transaction or app transaction lost to its verified original.
        let genuine = try Forgery.genuine()
        let before = try Self.appStoreSummary(plain)
        let after = try Self.appStoreSummary(cli)
        let superseded = (after["superseded"] as? Int ?? 0) - (before["superseded"] as? Int ?? 0)
        #expect(superseded >= genuine.transactions.count + genuine.appTransactions.count, "\(after)")
        let trust = after["rows_by_trust"] as? [String: Int] ?? [:]
        #expect(trust["self_signed"] ?? 0 >= genuine.transactions.count + genuine.appTransactions.count, "\(trust)")
    }

    /// `summary.json`'s `app_store` object.
    static func appStoreSummary(_ cli: CLI) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/summary.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(json["app_store"] as? [String: Any])
    }

    @Test func thePolicyCanAskForXcodeDataToo() throws {
        let (plain, _) = try Self.audit()
        let baseline = try Self.verdicts(plain)
        let cli = try CLI()
        for name in AppStoreSampleTests.appleInputs + ["sample-root.der"] {
            try cli.copy(AppStoreSampleTests.folder.appendingPathComponent(name))
        }
        try cli.write(
            "policy.json",
            Self.policy.replacingOccurrences(
                of: #""bundle_id": "com.example.trailmaps""#,
                with: #""bundle_id": "com.example.trailmaps", "environment": "Xcode""#))
        let forged = try Forgery.allForgedFiles()
        for (name, text) in forged { try cli.write(name, text) }
        let result = try cli.run(
            [
                "audit", "--policy", "policy.json", "--trusted-root", "sample-root.der", "--as-of",
                AppStoreSampleTests.asOf, "--out", "out",
            ] + AppStoreSampleTests.appleInputs + forged.keys.sorted())
        // The policy's opt-in reads the forged rows as unverified sandbox data, and says so.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("--accept-self-signed"))
        let summary = try Self.appStoreSummary(cli)
        #expect(summary["accept_self_signed"] as? Bool == true)
        #expect((summary["rows_by_trust"] as? [String: Int])?["self_signed"] ?? 0 > 0, "\(summary)")
        // Genuine production rows are out of place under an Xcode policy; no forged row took
        // a verified customer's place in the classes.
        let after = try Self.verdicts(cli)
        for customer in baseline.keys {
            #expect(after[customer] == nil || after[customer]?.customerClass == "excluded", "\(customer)")
        }
    }

    @Test func decodedCopiesUnderTrustDecodedChangeNoVerifiedCustomer() throws {
        let (plain, _) = try Self.audit()
        let baseline = try Self.verdicts(plain)
        let decoded = try Forgery.decodedCopies()
        let (cli, result) = try Self.audit(extra: ["decoded.json": decoded], options: ["--trust-decoded"])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.expectUnchanged(cli, baseline, "with decoded copies under --trust-decoded")
    }
}

/// Builds the forged files from the sample's genuine ones.
enum Forgery {
    static func read(_ name: String) throws -> String {
        try String(
            contentsOf: AppStoreSampleTests.folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The genuine JWS of the sample: transactions, app transactions and notifications.
    static func genuine() throws -> (transactions: [String], appTransactions: [String], notifications: [String]) {
        let history = try JSONSerialization.jsonObject(with: Data(try read("transaction-history.json").utf8))
        let transactions = (history as? [String: Any])?["signedTransactions"] as? [String] ?? []
        let appTransactions = try read("app-transactions.txt").split(separator: "\n").map(String.init)
        let notifications = try read("notifications.jsonl").split(separator: "\n").compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["signedPayload"] as? String
        }
        return (transactions, appTransactions, notifications)
    }

    static func payload(of jws: String) throws -> [String: Any] {
        let part = String(jws.split(separator: ".")[1])
        let data = try #require(base64URLDecode(part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The payload, changed as an attacker would: an Xcode environment (or receipt type) and a
    /// later signing date, nested JWS forged the same way.
    static func forge(_ payload: [String: Any]) throws -> [String: Any] {
        var payload = payload
        for key in ["signedDate", "receiptCreationDate"] {
            if let date = payload[key] as? NSNumber { payload[key] = date.int64Value + 1000 }
        }
        if payload["receiptType"] != nil { payload["receiptType"] = "Xcode" }
        if payload["environment"] != nil || payload["transactionId"] != nil { payload["environment"] = "Xcode" }
        if var data = payload["data"] as? [String: Any] {
            data["environment"] = "Xcode"
            data["status"] = 3
            for key in ["signedTransactionInfo", "signedRenewalInfo"] {
                if let inner = data[key] as? String { data[key] = try unsigned(forge(Self.payload(of: inner))) }
            }
            payload["data"] = data
        }
        if payload["autoRenewStatus"] != nil { payload["autoRenewStatus"] = 0 }
        return payload
    }

    /// A JWS of `payload` with `alg: none` and a garbage signature.
    static func unsigned(_ payload: [String: Any]) throws -> String {
        let body = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        return base64URL(Data(#"{"alg":"none"}"#.utf8)) + "." + base64URL(body) + ".AAAA"
    }

    /// Every forged file: transactions and app transactions as JWS lines, notifications
    /// (with their renewal info and transactions) as JSON Lines.
    static func allForgedFiles() throws -> [String: String] {
        let genuine = try genuine()
        let transactions = try genuine.transactions.map { try unsigned(forge(payload(of: $0))) }
        let apps = try genuine.appTransactions.map { try unsigned(forge(payload(of: $0))) }
        let notifications = try genuine.notifications.map { jws -> String in
            let text = try unsigned(forge(payload(of: jws)))
            return #"{"signedPayload": ""# + text + #""}"#
        }
        return [
            "forged-transactions.txt": transactions.joined(separator: "\n") + "\n",
            "forged-app-transactions.txt": apps.joined(separator: "\n") + "\n",
            "forged-notifications.jsonl": notifications.joined(separator: "\n") + "\n",
        ]
    }

    /// Rows the forged files hold: one per JWS line (a notification's rows are refused as one).
    static func forgedRowCount(_ files: [String: String]) -> Int {
        files.values.map { $0.split(separator: "\n").count }.reduce(0, +)
    }

    /// The genuine transactions and app transactions decoded, as `--trust-decoded` reads them,
    /// signed later, in production, with their content changed: refunded, or an old version.
    static func decodedCopies() throws -> String {
        let genuine = try genuine()
        var objects: [[String: Any]] = []
        for jws in genuine.transactions {
            var payload = try payload(of: jws)
            if let date = payload["signedDate"] as? NSNumber { payload["signedDate"] = date.int64Value + 1000 }
            payload["revocationDate"] = payload["purchaseDate"]
            payload["revocationReason"] = 0
            objects.append(payload)
        }
        for jws in genuine.appTransactions {
            var payload = try payload(of: jws)
            if let date = payload["receiptCreationDate"] as? NSNumber {
                payload["receiptCreationDate"] = date.int64Value + 1000
            }
            payload["originalApplicationVersion"] = "1"
            objects.append(payload)
        }
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
