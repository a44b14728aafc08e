import Foundation
import Testing

@_spi(TestHooks) @testable import GrandfatherCore
@testable import GrandfatherEngine

/// Issue 51, item 16: every id and text judged by one rule (`TextBytes`, SPEC §8.5). The same
/// hostile spellings of an id go through every source that takes ids, and each source refuses
/// (or keeps) each one alike, for the same reason: never a trimmed, repaired or renamed id.
@Suite struct TextRuleTests {
    /// What a source must do with a spelling.
    enum Expected: Sendable, CustomStringConvertible {
        /// Kept as given: no rejection, and the id is the customer's where the source names customers.
        case kept
        /// Refused at its line, for a reason that ends with this complaint (`TextBytes.Problem`).
        case refused(String)
        /// Never kept as a customer `""`; how the source says so is its own (a missing field).
        case notAnID

        var description: String {
            switch self {
            case .kept: return "kept"
            case .refused(let complaint): return "refused: \(complaint)"
            case .notAnID: return "not an id"
            }
        }
    }

    /// One spelling of an id: its text, as JSON string content and as raw file bytes.
    struct Spelling: Sendable, CustomStringConvertible {
        var name: String
        /// The id as it lies between a JSON string's quotes (escapes allowed).
        var json: [UInt8]
        /// The id as raw bytes in a CSV file; `nil` when only UTF-16 can carry it (`units`).
        var raw: [UInt8]?
        /// The id as UTF-16 code units, for a spelling only UTF-16 can carry in a CSV file.
        var units: [UInt16] = []
        var expected: Expected
        /// The customer id a kept spelling becomes.
        var kept: String?

        var description: String { name }
    }

    static let encodingComplaint = "not valid UTF-8"

    /// A spelling a CSV file carries as its UTF-8 bytes and a JSON string as the same text.
    static func text(_ name: String, _ text: String, _ expected: Expected, kept: String? = nil) -> Spelling {
        Spelling(name: name, json: Array(text.utf8), raw: Array(text.utf8), expected: expected, kept: kept)
    }

    /// Refused for white space at either end, `scalar` the one named.
    static func spaced(_ name: String, _ given: String, _ scalar: UInt32) -> Spelling {
        text(name, given, .refused(TextBytes.Problem.surroundingSpace(scalar).complaint))
    }

    static let spellings: [Spelling] = [
        text("plain", "ok-1", .kept, kept: "ok-1"),
        text("non-ASCII with a space inside", "café 2", .kept, kept: "café 2"),
        text("over 64 KiB", String(repeating: "a", count: 65_537), .refused(TextBytes.Problem.overlong.complaint)),
        Spelling(
            name: "a control character", json: Array("id\\u0001x".utf8), raw: [0x69, 0x64, 0x01, 0x78],
            expected: .refused(TextBytes.Problem.controlCharacter(1).complaint)),
        Spelling(
            name: "a NUL byte", json: Array("id\\u0000x".utf8), raw: [0x69, 0x64, 0x00, 0x78],
            expected: .refused(TextBytes.Problem.nul.complaint)),
        Spelling(
            name: "invalid UTF-8", json: [0x69, 0x64, 0xFF, 0x78], raw: [0x69, 0x64, 0xFF, 0x78],
            expected: .refused(encodingComplaint)),
        Spelling(
            name: "a lone surrogate", json: Array("id\\ud800x".utf8), raw: nil, units: [0x69, 0x64, 0xD800, 0x78],
            expected: .refused(encodingComplaint)),
        spaced("no-break spaces around it", "\u{A0}GPA.1\u{A0}", 0xA0),
        // ASCII white space is kept around an id (values are never trimmed, SPEC §2); the
        // claims file, typed by hand, drops it as its format's.
        text("a leading ASCII space", " ok-3", .kept, kept: " ok-3"),
        spaced("a trailing ideographic space", "ok-4\u{3000}", 0x3000),
        spaced("a trailing zero-width space", "ok-5\u{200B}", 0x200B),
        text("empty", "", .notAnID),
    ]

    /// A source that takes ids: a file made around one id, where the id lands.
    struct Source: Sendable, CustomStringConvertible {
        var name: String, file: String
        /// JSON sources take the id as JSON string content; CSV sources as raw bytes.
        var isJSON: Bool
        /// The file's text before and after the id.
        var before: String, after: String
        /// Whether the id names a customer, so that a kept one is among the run's customers.
        var namesCustomer: Bool
        var policy = PolicySpec(), trustDecoded = false

        var description: String { name }

        /// A source whose file is `template` with the id in place of `{ID}`.
        init(
            _ name: String, _ file: String, json: Bool = false, _ template: String, customer: Bool = false,
            policy: PolicySpec = PolicySpec(), trustDecoded: Bool = false
        ) {
            let parts = template.components(separatedBy: "{ID}")
            (self.name, self.file, isJSON, before, after) = (name, file, json, parts[0], parts[1])
            (namesCustomer, self.policy, self.trustDecoded) = (customer, policy, trustDecoded)
        }
    }

    static let sources: [Source] = [
        Source("canonical customers CSV", "customers.csv", "customer_id,platform\n{ID},ios\n", customer: true),
        Source(
            "canonical customers JSON Lines", "customers.jsonl", json: true,
            #"{"customer_id": "{ID}", "platform": "ios"}"# + "\n", customer: true),
        Source(
            "canonical transactions CSV", "transactions.csv",
            "transaction_id,customer_id,product_id,product_type,purchase_date\n"
                + "t1,{ID},pro.lifetime,non_consumable,2024-01-01T00:00:00Z\n", customer: true),
        Source(
            "canonical transactions JSON array", "transactions.json", json: true,
            #"[{"transaction_id": "t1", "customer_id": "{ID}", "product_id": "pro.lifetime", "#
                + #""product_type": "non_consumable", "purchase_date": "2024-01-01T00:00:00Z"}]"# + "\n", customer: true
        ),
        Source(
            "App Store app transaction", "app.json", json: true,
            #"{"receiptType":"Production","bundleId":"com.example.app","originalApplicationVersion":"100","#
                + #""originalPurchaseDate":1672531200000,"originalPlatform":"iOS","receiptCreationDate":1714521600000,"#
                + #""appTransactionId":"{ID}"}"# + "\n", customer: true,
            policy: PolicySpec(apple: #"{"bundle_id": "com.example.app", "environment": "Production"}"#),
            trustDecoded: true),
        Source(
            "RevenueCat export", "export.csv",
            "rc_original_app_user_id,product_identifier,start_time,end_time,store,is_auto_renewable,is_sandbox,"
                + "store_transaction_id,renewal_number,updated_at\n"
                + "{ID},pro.lifetime,2024-01-01 00:00:00,,app_store,false,false,4100,1,2024-01-01 00:00:05\n",
            customer: true),
        Source(
            "RevenueCat customer list", "customer-list.csv",
            "app_user_id;first_seen_at;latest_store;has_made_sandbox_purchase\n{ID};1704067200000;App Store;f\n",
            customer: true),
        Source(
            "RevenueCat subscriber response", "subscribers.jsonl", json: true,
            #"{"request_date": "2024-05-01T00:00:00Z", "subscriber": {"original_app_user_id": "{ID}", "#
                + #""original_application_version": "100", "subscriptions": {}, "non_subscriptions": {}, "entitlements": {}}}"#
                + "\n", customer: true),
        Source(
            "RevenueCat webhook", "webhooks.jsonl", json: true,
            #"{"api_version": "1.0", "event": {"type": "RENEWAL", "event_timestamp_ms": 1, "#
                + #""original_app_user_id": "rc-1", "app_user_id": "{ID}"}}"# + "\n"),
        Source(
            "Google Play response", "subscriptions.jsonl", json: true,
            playResponse("tok-1", customer: "{ID}") + "\n"),
        // A verdicts file is recognised by its first verdict (issue 51, item 13): the hostile one follows a plain one.
        Source("licensing verdict", "verdicts.jsonl", json: true, verdict("v0") + "\n" + verdict("{ID}") + "\n"),
        Source("claimed order", "claimed-orders.csv", "customer_id,order_number\nc1,{ID}\n"),
        Source(
            "Google Play sales report", "salesreport_202402.csv",
            GooglePlaySalesReportTests.report(GooglePlaySalesReportTests.row("{ID}", "2024-02-29", "1709251199"))),
        Source(
            "App Store sales report", "S_D_85012345_20240210.txt",
            AppleSalesReportTests.report(AppleSalesReportTests.row("1", "1", "02/10/2024", app: "{ID}"))),
    ]

    /// A stored Google Play subscription response of `token`, naming `customer`.
    static func playResponse(_ token: String, customer: String) -> String {
        #"{"purchaseToken":"\#(token)","kind":"androidpublisher#subscriptionPurchaseV2","#
            + #""startTime":"2024-04-01T10:00:00Z","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","#
            + #""externalAccountIdentifiers":{"obfuscatedExternalAccountId":"\#(customer)"},"#
            + #""lineItems":[{"productId":"pro.monthly","expiryTime":"2024-07-01T10:00:00Z"}]}"#
    }

    /// A stored licensing verdict of `id`.
    static func verdict(_ id: String) -> String {
        #"{"customer_id":"\#(id)","requestDetails":{"requestPackageName":"com.example.maps","#
            + #""timestampMillis":"1707523200000","nonce":"aGVsbG8="},"#
            + #""appIntegrity":{"appRecognitionVerdict":"PLAY_RECOGNIZED"},"accountDetails":{"appLicensingVerdict":"LICENSED"}}"#
    }

    /// A voided purchase of `token`, as the Voided Purchases API lists it.
    static func voided(_ token: [UInt8]) -> [UInt8] {
        Array(#"{"voidedPurchases":[{"purchaseToken":""#.utf8) + token
            + Array((#"","voidedTimeMillis":"1711929600000","orderId":"GPA.9"}]}"# + "\n").utf8)
    }

    /// A Google Play notification carries its token inside base64 data: made apart.
    static func notification(_ token: [UInt8]) -> [UInt8] {
        let inner =
            Array(
                #"{"version":"1.0","packageName":"com.example.maps","eventTimeMillis":"1711929600000","subscriptionNotification":{"version":"1.0","notificationType":4,"purchaseToken":""#
                    .utf8) + token + Array(#"","subscriptionId":"pro.monthly"}}"#.utf8)
        let data = Data(inner).base64EncodedString()
        return Array(
            (#"{"message":{"attributes":{},"data":"\#(data)","messageId":"m1"},"subscription":"projects/p/subscriptions/s"}"#
                + "\n").utf8)
    }

    /// The file `source` makes around `spelling`.
    static func file(_ source: Source, _ spelling: Spelling) -> [UInt8] {
        if source.isJSON { return Array(source.before.utf8) + spelling.json + Array(source.after.utf8) }
        if let raw = spelling.raw { return Array(source.before.utf8) + raw + Array(source.after.utf8) }
        // UTF-16 little-endian with its mark: the only way a CSV file holds a lone surrogate.
        let units = [0xFEFF] + Array(source.before.utf16) + spelling.units + Array(source.after.utf16)
        return units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// What a run over one file gives: its rejections' reasons (or the run's failure), and its customers.
    struct Outcome {
        var reasons: [String]
        var customers: [String]
    }

    static func run(
        _ name: String, _ bytes: [UInt8], beside: [FixtureFile] = [], policy: PolicySpec, trustDecoded: Bool
    ) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("grandfather-text-rule-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (loaded, inputs) = try AuditFixture.install(
            beside + [FixtureFile(name, bytes: bytes)], policy: policy, in: folder)
        guard case .success(let asOf) = TimestampParser(defaultZone: nil).parse(AuditFixture.defaultAsOf) else {
            throw GrandfatherError.usage("as-of")
        }
        var checks = SignatureChecks()
        checks.trustDecoded = trustDecoded
        do {
            let audit = try Pipeline.audits(
                [AuditSettings(policy: loaded, asOf: asOf, signatures: checks)], inputs: inputs, hooks: TestHooks())[0]
            let path = folder.appendingPathComponent(name).path
            return Outcome(
                reasons: audit.rejections.filter { $0.file == path }.map(\.reason),
                customers: audit.customers.map(\.customer.id))
        } catch {
            return Outcome(reasons: ["\(error)"], customers: [])
        }
    }

    /// Checks one source's outcome for one spelling; what is wrong, or `nil`.
    static func check(_ outcome: Outcome, _ source: Source, _ spelling: Spelling) -> String? {
        switch spelling.expected {
        case .kept:
            if !outcome.reasons.isEmpty { return "rejected: \(outcome.reasons)" }
            if source.namesCustomer, let id = spelling.kept, !outcome.customers.contains(id) {
                return "no customer \(id) among \(outcome.customers)"
            }
        case .refused(let complaint):
            guard outcome.reasons.count == 1, let reason = outcome.reasons.first else {
                return "\(outcome.reasons.count) rejections, not one: \(outcome.reasons)"
            }
            if !reason.contains(complaint) { return "reason '\(reason.prefix(200))' is not '… \(complaint)'" }
            if source.namesCustomer, !outcome.customers.isEmpty {
                return "kept customers \(outcome.customers.map { $0.prefix(20) })"
            }
        case .notAnID:
            if outcome.customers.contains("") { return "a customer named ''" }
        }
        return nil
    }

    @Test("one source, every spelling", arguments: sources)
    func everySpellingThroughOneSource(_ source: Source) throws {
        for spelling in Self.spellings {
            let outcome = try Self.run(
                source.file, Self.file(source, spelling), policy: source.policy, trustDecoded: source.trustDecoded)
            if let wrong = Self.check(outcome, source, spelling) {
                Issue.record("\(source.name), \(spelling.name) (expected \(spelling.expected)): \(wrong)")
            }
        }
    }

    @Test(
        "a Google Play notification's or voided purchase's token, every spelling",
        arguments: [("Google Play notification", "rtdn.jsonl"), ("Google Play voided purchase", "voided.json")])
    func everySpellingAsAToken(_ name: String, _ file: String) throws {
        let source = Source(name, file, json: true, "{ID}")
        // The kept tokens' responses, so that a kept notification names a customer.
        let responses = ["ok-1", "café 2", " ok-3"].map { Self.playResponse($0, customer: "c-\($0)") }
        let beside = [FixtureFile("subscriptions.jsonl", responses.joined(separator: "\n") + "\n")]
        for spelling in Self.spellings {
            let outcome = try Self.run(
                source.file, file == "rtdn.jsonl" ? Self.notification(spelling.json) : Self.voided(spelling.json),
                beside: beside, policy: PolicySpec(),
                trustDecoded: false)
            if let wrong = Self.check(outcome, source, spelling) {
                Issue.record("\(source.name), \(spelling.name) (expected \(spelling.expected)): \(wrong)")
            }
        }
    }

    /// The rule itself, byte for byte: what it refuses and the one wording of each refusal.
    @Test func theRuleAndItsWording() {
        func id(_ text: String) -> TextBytes.Problem? { TextBytes.problem(text, as: .identifier) }
        func value(_ text: String) -> TextBytes.Problem? { TextBytes.problem(text, as: .value) }
        #expect(id("GPA.1") == nil)
        #expect(id("c 9") == nil)
        #expect(id("café") == nil)
        #expect(id("") == nil)
        #expect(id("\u{A0}GPA.1") == .surroundingSpace(0xA0))
        #expect(id("GPA.1\u{3000}") == .surroundingSpace(0x3000))
        #expect(id("\u{FEFF}c1") == .surroundingSpace(0xFEFF))
        #expect(id("c1\u{2060}") == .surroundingSpace(0x2060))
        // ASCII white space is kept as given, around an id too (SPEC §2: never trimmed; a
        // quoted CSV value may hold a tab or a line break, and every reader keeps it).
        #expect(id("GPA.1 ") == nil)
        #expect(id(" c1\t") == nil)
        #expect(id("coins.100,\n") == nil)
        #expect(id("c\r\n1") == nil)
        // Another text keeps its spaces (the conformance set's c16: a version " 200" is read, and is no version).
        #expect(value(" 200") == nil)
        #expect(value("200\u{A0}") == nil)
        for text in [id, value] {
            #expect(text("a\tb\nc\rd") == nil)
            #expect(text("a\u{1}b") == .controlCharacter(1))
            #expect(text("a\u{B}b") == .controlCharacter(0xB))
            #expect(text("a\u{1F}") == .controlCharacter(0x1F))
            #expect(text("a\u{85}b") == .controlCharacter(0x85))
            #expect(text("a\u{7F}") == .controlCharacter(0x7F))
            #expect(text("a\0b") == .nul)
            #expect(text(String(repeating: "a", count: 65_537)) == .overlong)
            #expect(text(String(repeating: "a", count: 65_536)) == nil)
        }
        ([0x69, 0xED, 0xA0, 0x80] as [UInt8]).withUnsafeBytes {
            #expect(TextBytes.problem($0, as: .identifier) == .invalidUTF8)
            #expect(TextBytes.problem($0, as: .value) == .invalidUTF8)
        }
        #expect(
            TextBytes.Problem.surroundingSpace(0xA0).reason("order_number")
                == "order_number begins or ends with white space (U+00A0); values are never trimmed")
        #expect(TextBytes.Problem.controlCharacter(1).reason("id") == "id contains a control character (U+0001)")
        #expect(TextBytes.Problem.overlong.reason("id") == "id is longer than 65536 bytes")
    }
}
