import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §1 and §8.10: versions are dot-separated ASCII integers compared component by
/// component as numbers of any length; missing components count as 0.
struct AppVersionTests {
    enum Order: Sendable {
        case less, equal, greater
    }

    @Test(
        "versions compare component by component as integers",
        arguments: [
            ("2", "10", Order.less),
            ("10", "2", .greater),
            ("1.9", "1.10", .less),
            ("1.10", "1.9", .greater),
            ("2", "2.0", .equal),
            ("2.0", "2.0.0", .equal),
            ("2", "2.0.0", .equal),
            ("0245", "245", .equal),
            ("245", "0245", .equal),
            ("00010", "9", .greater),
            ("244", "245", .less),
            ("2.0.1", "2.0", .greater),
            ("1.0.0.0.1", "1", .greater),
            ("0", "0.0.0", .equal),
            ("0", "0.1", .less),
            ("1.2.3", "1.3", .less),
            // Longer than UInt64 (18446744073709551615) and still numbers.
            ("18446744073709551616", "18446744073709551615", .greater),
            ("99999999999999999999999", "100000000000000000000000", .less),
            ("1.18446744073709551616", "1.018446744073709551616", .equal),
            ("5.123456789012345678901234567890", "5.123456789012345678901234567891", .less),
        ])
    func order(lhs: String, rhs: String, expected: Order) throws {
        let left = try #require(AppVersion(lhs))
        let right = try #require(AppVersion(rhs))
        // The classify stage's comparison on bytes answers as `<` does.
        #expect(AppVersion.compare(lhs, with: right)?.lower == (expected == .less))
        #expect(AppVersion.compare(rhs, with: left)?.lower == (expected == .greater))
        switch expected {
        case .less:
            #expect(left < right)
            #expect(!(right < left))
            #expect(left != right)
        case .equal:
            #expect(left == right)
            #expect(!(left < right))
            #expect(!(right < left))
            #expect(left.hashValue == right.hashValue)
        case .greater:
            #expect(right < left)
            #expect(!(left < right))
            #expect(left != right)
        }
    }

    @Test(
        "only dot-separated ASCII digits parse",
        arguments: [
            "2.0b1", " 200", "200 ", "", "1..2", "-1", "+1", "1.", ".1", ".", "v2", "1,2", "1.2-beta", "2.0\n",
            "\u{FF12}",  // fullwidth digit two
            "\u{0662}",  // Arabic-Indic digit two
            "1. 2", "0x10",
        ])
    func unparseable(text: String) {
        #expect(AppVersion(text) == nil)
    }

    @Test(
        "versions that parse keep their text",
        arguments: ["1", "2.0", "0245", "1.10.3", "0", "00", "18446744073709551616.1"])
    func parseable(text: String) throws {
        let version = try #require(AppVersion(text))
        #expect(version.text == text)
        #expect(version.description == text)
    }

    @Test("equal versions are one element of a set")
    func hashing() throws {
        let versions = try ["2", "2.0", "2.0.0", "02.00"].map { try #require(AppVersion($0)) }
        #expect(Set(versions).count == 1)
    }

    @Test(
        "naive comparison compares the raw text by code points",
        arguments: [
            ("10", "2", true),  // the trap: "10" < "2" as strings
            ("2", "10", false),
            ("1.10", "1.9", true),
            ("1.9", "1.10", false),
            ("30", "245", false),
            ("1000", "245", true),
            ("0245", "245", true),
            ("245", "245", false),
            ("2", "2.0", true),
        ])
    func naive(lhs: String, rhs: String, naivelyLess: Bool) throws {
        let left = try #require(AppVersion(lhs))
        let right = try #require(AppVersion(rhs))
        #expect(left.naivelyPrecedes(right) == naivelyLess)
        #expect(AppVersion.compare(lhs, with: right)?.naivelyLower == naivelyLess)
    }

    @Test("each platform has its cutover: iOS build numbers, macOS marketing versions")
    func cutoverPerPlatform() throws {
        let policy = try PolicyLoader.parse(data: Data(PolicySpec().json.utf8), file: "policy.json")
        let cutover = policy.cutover
        #expect(cutover.version(for: .ios)?.text == "245")
        #expect(cutover.version(for: .ipados)?.text == "245")
        #expect(cutover.version(for: .macos)?.text == "2.0")
        // watchOS has no key of its own: `default` applies.
        #expect(cutover.version(for: .watchos)?.text == "2.0")
        let build = try #require(AppVersion("100"))
        let marketing = try #require(AppVersion("1.5"))
        let ios = try #require(cutover.version(for: .ios))
        let macos = try #require(cutover.version(for: .macos))
        #expect(build < ios)
        #expect(!(build < macos))  // a build number read against a marketing version is never "before"
        #expect(marketing < macos)
    }

    @Test("the same version string classifies by the customer's platform")
    func classificationPerPlatform() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                ios-build,ios,100
                mac-build,macos,100
                mac-marketing,macos,1.5
                ios-marketing,ios,2.5
                ios-at-cutover,ios,245.0
                mac-at-cutover,macos,2
                """)
        #expect(run.customerClass("ios-build") == .grandfathered)
        #expect(run.customerClass("mac-build") == .new)
        #expect(run.customerClass("mac-marketing") == .grandfathered)
        #expect(run.customerClass("ios-marketing") == .grandfathered)
        #expect(run.customerClass("ios-at-cutover") == .new)
        #expect(run.customerClass("mac-at-cutover") == .new)
    }
}
