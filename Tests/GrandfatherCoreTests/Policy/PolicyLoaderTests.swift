import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §3: the policy file, its defaults, and invalid policies rejected naming the key.
struct PolicyLoaderTests {
    static let example = """
        {
          "name": "paid-to-subscription 2024",
          "cutover": {
            "date": "2024-03-01T00:00:00Z",
            "versions": { "ios": "245", "ipados": "245", "macos": "2.0", "default": "2.0" },
            "basis": "version"
          },
          "grandfathered_entitlements": ["premium"],
          "products": {
            "pro.monthly":   { "entitlements": ["premium"] },
            "pro.lifetime":  { "entitlements": ["premium"] },
            "nav.1year":     { "entitlements": ["navigation"], "term_days": 365 }
          },
          "non_renewing_term_days": 365,
          "edge_window_hours": 24,
          "max_rejected_fraction": 0.001,
          "default_time_zone": "America/Los_Angeles"
        }
        """

    static func parse(_ text: String) throws(GrandfatherError) -> Policy {
        try PolicyLoader.parse(data: Data(text.utf8), file: "policy.json")
    }

    /// The error a policy text gives, or `nil` when it loads.
    static func failure(_ text: String) -> GrandfatherError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("SPEC §3's example loads with every value")
    func example() throws {
        let policy = try Self.parse(Self.example)
        #expect(policy.name == "paid-to-subscription 2024")
        #expect(policy.cutover.date == Instant(seconds: 1_709_251_200))
        #expect(policy.cutover.basis == .version)
        #expect(policy.cutover.versions?[.ios] == AppVersion("245"))
        #expect(policy.cutover.versions?[.ipados] == AppVersion("245"))
        #expect(policy.cutover.versions?[.macos] == AppVersion("2.0"))
        #expect(policy.cutover.versions?[.tvos] == nil)
        #expect(policy.cutover.defaultVersion == AppVersion("2.0"))
        #expect(policy.grandfatheredEntitlements == ["premium"])
        #expect(policy.products.count == 3)
        #expect(policy.products["nav.1year"] == ProductRule(entitlements: ["navigation"], termDays: 365))
        #expect(policy.products["pro.monthly"] == ProductRule(entitlements: ["premium"], termDays: nil))
        #expect(policy.nonRenewingTermDays == 365)
        #expect(policy.edgeWindowSeconds == 24 * 3600)
        #expect(policy.maxRejectedFraction == 0.001)
        #expect(policy.defaultTimeZone?.identifier == "America/Los_Angeles")
    }

    @Test("optional keys take SPEC §3's defaults")
    func defaults() throws {
        let policy = try Self.parse(
            """
            {
              "cutover": { "date": "2024-03-01T00:00:00Z", "versions": { "ios": "245" } },
              "grandfathered_entitlements": ["premium"]
            }
            """)
        #expect(policy.name == nil)
        #expect(policy.cutover.basis == .version)
        #expect(policy.cutover.defaultVersion == nil)
        #expect(policy.cutover.version(for: .macos) == nil)
        #expect(policy.products.isEmpty)
        #expect(policy.nonRenewingTermDays == 365)
        #expect(policy.edgeWindowSeconds == 24 * 3600)
        #expect(policy.maxRejectedFraction == 0.001)
        #expect(policy.defaultTimeZone == nil)
    }

    @Test("a product missing from products grants grandfathered_entitlements; terms fall back to the policy's")
    func productLookups() throws {
        let policy = try Self.parse(
            Self.example.replacingOccurrences(
                of: "\"non_renewing_term_days\": 365", with: "\"non_renewing_term_days\": 180"))
        #expect(policy.entitlements(forProduct: "nav.1year") == ["navigation"])
        #expect(policy.entitlements(forProduct: "legacy.unlock") == ["premium"])
        #expect(policy.termSeconds(forProduct: "nav.1year") == 365 * 86_400)
        #expect(policy.termSeconds(forProduct: "pro.monthly") == 180 * 86_400)
        #expect(policy.termSeconds(forProduct: "legacy.unlock") == 180 * 86_400)
    }

    @Test("a product may state its type (SPEC §9), for sources that cannot", arguments: ProductType.allCases)
    func productType(type: ProductType) throws {
        let policy = try Self.parse(
            Self.variant(extra: #", "products": {"p": {"entitlements": ["x"], "type": "\#(type.rawValue)"}}"#))
        #expect(policy.products["p"] == ProductRule(entitlements: ["x"], termDays: nil, type: type))
    }

    @Test("basis date needs no versions", arguments: ["date", "DATE"])
    func dateBasisWithoutVersions(basis: String) throws {
        let policy = try Self.parse(
            """
            {
              "cutover": { "date": "2024-03-01T00:00:00Z", "basis": "\(basis)" },
              "grandfathered_entitlements": ["premium"]
            }
            """)
        #expect(policy.cutover.basis == .date)
        #expect(policy.cutover.version(for: .ios) == nil)
    }

    @Test(
        "every basis parses",
        arguments: [("version", CutoverBasis.version), ("date", .date), ("either", .either), ("both", .both)])
    func bases(text: String, basis: CutoverBasis) throws {
        let policy = try Self.parse(
            """
            {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "2"}, "basis": "\(text)"},
             "grandfathered_entitlements": ["premium"]}
            """)
        #expect(policy.cutover.basis == basis)
    }

    @Test("a zone-less cutover.date is wall time in default_time_zone, wherever the key stands")
    func zonelessCutover() throws {
        let policy = try Self.parse(
            """
            {
              "cutover": { "date": "2024-03-01T00:00:00", "versions": { "default": "2.0" } },
              "grandfathered_entitlements": ["premium"],
              "default_time_zone": "America/Los_Angeles"
            }
            """)
        // Midnight in Los Angeles (PST, UTC−8) is 08:00Z.
        #expect(policy.cutover.date == Instant(seconds: 1_709_280_000))
        #expect(policy.cutover.date.iso8601 == "2024-03-01T08:00:00Z")
    }

    @Test(
        "default_time_zone takes any IANA zone name",
        arguments: ["Europe/Paris", "America/St_Johns", "Asia/Kolkata", "Etc/UTC", "America/Argentina/Buenos_Aires"])
    func ianaZones(zone: String) throws {
        let text = """
            {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "2"}},
             "grandfathered_entitlements": ["premium"], "default_time_zone": "\(zone)"}
            """
        let policy = try Self.parse(text)
        #expect(policy.defaultTimeZone?.identifier == zone)
    }

    @Test("a fractional edge window is read in hours")
    func fractionalWindow() throws {
        let policy = try Self.parse(
            """
            {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "2"}},
             "grandfathered_entitlements": ["premium"], "edge_window_hours": 1.5}
            """)
        #expect(policy.edgeWindowSeconds == 5_400)
    }

    /// A policy that is valid until a test changes the members of `cutover` or appends top-level members.
    static func variant(
        cutover: String = #""date": "2024-03-01T00:00:00Z", "versions": {"ios": "245"}"#, extra: String = ""
    )
        -> String
    {
        """
        {
          "cutover": { \(cutover) },
          "grandfathered_entitlements": ["premium"]\(extra)
        }
        """
    }

    @Test(
        "an invalid policy is a policy error naming the key",
        arguments: [
            (variant(extra: #", "cutoff": "2024-03-01T00:00:00Z""#), "cutoff"),
            (
                variant(cutover: #""date": "2024-03-01T00:00:00Z", "versions": {"ios": "245"}, "cutoff": 1"#),
                "cutover.cutoff"
            ),
            (variant(cutover: #""date": "2024-03-01", "versions": {"ios": "245"}"#), "cutover.date"),
            (variant(cutover: #""date": "2024-02-30T00:00:00Z", "versions": {"ios": "245"}"#), "cutover.date"),
            (variant(cutover: #""date": "2024-03-01T00:00:00", "versions": {"ios": "245"}"#), "cutover.date"),
            (variant(cutover: #""versions": {"ios": "245"}"#), "cutover.date"),
            (
                variant(cutover: #""date": "2024-03-01T00:00:00Z", "versions": {"ios": "2.0b1"}"#),
                "cutover.versions.ios"
            ),
            (
                variant(cutover: #""date": "2024-03-01T00:00:00Z", "versions": {"default": "1..2"}"#),
                "cutover.versions.default"
            ),
            (variant(cutover: #""date": "2024-03-01T00:00:00Z", "versions": {"windows": "2"}"#), "windows"),
            (variant(cutover: #""date": "2024-03-01T00:00:00Z", "basis": "version""#), "cutover.versions"),
            (variant(cutover: #""date": "2024-03-01T00:00:00Z", "versions": {}"#), "cutover.versions"),
            (
                variant(cutover: #""date": "2024-03-01T00:00:00Z", "versions": {}, "basis": "either""#),
                "cutover.versions"
            ),
            (
                variant(cutover: #""date": "2024-03-01T00:00:00Z", "versions": {"ios": "245"}, "basis": "sometimes""#),
                "cutover.basis"
            ),
            (variant(extra: #", "edge_window_hours": -1"#), "edge_window_hours"),
            (variant(extra: #", "non_renewing_term_days": -30"#), "non_renewing_term_days"),
            (variant(extra: #", "max_rejected_fraction": -0.1"#), "max_rejected_fraction"),
            (variant(extra: #", "default_time_zone": "Mars/Olympus_Mons""#), "default_time_zone"),
            (variant(extra: #", "products": {"p": {"entitlements": ["x"], "term_days": -1}}"#), "products.p.term_days"),
            (variant(extra: #", "products": {"p": {"entitlements": ["x"], "term": 30}}"#), "products.p.term"),
            (variant(extra: #", "products": {"p": {"entitlements": ["x"], "type": "lifetime"}}"#), "products.p.type"),
            (variant(extra: #", "products": {"p": {"entitlements": ["x"], "type": 1}}"#), "products.p.type"),
            (#"{"grandfathered_entitlements": ["premium"]}"#, "cutover"),
            (variant(extra: "").replacingOccurrences(of: #"["premium"]"#, with: "[]"), "grandfathered_entitlements"),
            (
                #"{"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"ios": "245"}}}"#,
                "grandfathered_entitlements"
            ),
        ])
    func invalid(text: String, key: String) throws {
        let error = try #require(Self.failure(text), "the policy loaded")
        guard case .policy(let file, _, _, let message) = error else {
            Issue.record("not a policy error: \(error)")
            return
        }
        #expect(file == "policy.json")
        #expect(message.contains(key), "\(message)")
        #expect(error.exitCode == 2)
        // One line: file:line:col: error: message.
        let description = error.description
        #expect(!description.contains("\n"))
        #expect(description.wholeMatch(of: /policy\.json:\d+:\d+: error: .+/) != nil, "\(description)")
    }

    @Test("an unknown key is reported at its line and column")
    func unknownKeyPosition() throws {
        let text = """
            {
              "name": "x",
              "cutover": {
                "date": "2024-03-01T00:00:00Z",
                "cutoff": "2024-03-01T00:00:00Z",
                "versions": { "ios": "245" }
              },
              "grandfathered_entitlements": ["premium"]
            }
            """
        let error = try #require(Self.failure(text))
        #expect(error == .policy(file: "policy.json", line: 5, column: 5, message: #"unknown key "cutover.cutoff""#))
        #expect(error.description == #"policy.json:5:5: error: unknown key "cutover.cutoff""#)

        let topLevel = try #require(
            Self.failure(
                """
                {
                  "cutover": { "date": "2024-03-01T00:00:00Z", "versions": { "ios": "245" } },
                  "grandfathered_entitlements": ["premium"],
                     "cutof": 1
                }
                """))
        guard case .policy(_, let line, let column, let message) = topLevel else {
            Issue.record("not a policy error: \(topLevel)")
            return
        }
        #expect(line == 4)
        #expect(column == 6)
        #expect(message.contains("cutof"))
    }

    @Test("a syntax error is a policy error with its place")
    func syntaxError() throws {
        let error = try #require(Self.failure("{\n  \"name\": \"x\",\n  \"cutover\": \n}"))
        guard case .policy(let file, let line, let column, _) = error else {
            Issue.record("not a policy error: \(error)")
            return
        }
        #expect(file == "policy.json")
        #expect(line == 4)
        #expect(column != nil)
        #expect(error.exitCode == 2)
    }

    @Test("a policy that is not an object is a policy error", arguments: ["[]", "\"policy\"", "42"])
    func notAnObject(text: String) throws {
        let error = try #require(Self.failure(text))
        guard case .policy = error else {
            Issue.record("not a policy error: \(error)")
            return
        }
        #expect(error.exitCode == 2)
    }
}
