import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §9, licensing verdicts: a stored Google Play licensing verdict dates a purchase when
/// it says LICENSED before the cutover, and says so when it does only after.
@Suite struct LicensingVerdictTests {
    /// `PolicySpec`'s cutover is 2024-03-01T00:00:00Z (1709251200000 ms).
    static func integrity(_ id: String, _ verdict: String, _ millis: String, app: String = "com.example.maps")
        -> String
    {
        #"{"customer_id":"\#(id)","requestDetails":{"requestPackageName":"\#(app)","timestampMillis":"\#(millis)","#
            + #""nonce":"aGVsbG8="},"appIntegrity":{"appRecognitionVerdict":"PLAY_RECOGNIZED"},"#
            + #""accountDetails":{"appLicensingVerdict":"\#(verdict)"}}"#
    }

    static func lvl(_ id: String, _ code: Int, _ millis: String, app: String = "com.example.maps") -> String {
        #"{"customer_id":"\#(id)","signed_data":"\#(code)|1579380448|\#(app)|1|ADf8I4ajjgc1P5ZI1S1DN/YIPIUNPECLrg==|\#(millis):VT=11&GT=22&GR=33","signature":"c2ln"}"#
    }

    static let verdicts =
        [
            integrity("alice", "LICENSED", "1707523200000"),
            integrity("bob", "LICENSED", "1711929600000"),
            integrity("carol", "UNLICENSED", "1707523200000"),
            lvl("dan", 0, "1707609600000"),
            lvl("erin", 1, "1707609600000"),
            integrity("frank", "LICENSED", "1711929600000"),
            integrity("frank", "LICENSED", "1707696000000"),
            integrity("frank", "LICENSED", "1707782400000"),
            #"{"customer_id":"gina","tokenPayloadExternal":{"requestDetails":{"timestampMillis":1707523200000},"#
                + #""accountDetails":{"appLicensingVerdict":"LICENSED"}}}"#,
            integrity("alice", "LICENSED", "1707523200000"),
        ].joined(separator: "\n") + "\n"

    static let customers = """
        customer_id,platform,original_purchase_date
        alice,android,
        bob,android,
        gina,android,2024-05-01T00:00:00Z

        """

    @Test func licensedBeforeTheCutoverDatesThePurchase() throws {
        let run = try AuditFixture.run(
            [FixtureFile("customers.csv", Self.customers), FixtureFile("verdicts.jsonl", Self.verdicts)],
            policy: PolicySpec(basis: "date"))
        #expect(run.input("verdicts.jsonl")?.format == .playLicensing)
        #expect(run.input("verdicts.jsonl")?.exactDuplicates == 1)
        #expect(run.result("alice")?.customer.originalPurchaseDate == Instant(seconds: 1_707_523_200))
        #expect(run.result("alice")?.customer.provenance.source(of: .originalPurchaseDate) == .playLicensing)
        #expect(run.customerClass("alice") == .grandfathered)
        #expect(run.flags("bob").contains("licensed_only_after_cutover") && run.customerClass("bob") == .new)
        #expect(run.result("carol")?.customer.originalPurchaseDate == nil)
        #expect(!run.flags("carol").contains("licensed_only_after_cutover"))
        #expect(run.result("carol")?.customer.platform == .android)
        #expect(run.customerClass("dan") == .grandfathered, "LVL's LICENSED, response code 0")
        #expect(run.result("erin")?.customer.originalPurchaseDate == nil, "LVL's NOT_LICENSED, response code 1")
        // The earliest licensed verdict before the cutover; one after it changes nothing.
        #expect(run.result("frank")?.customer.originalPurchaseDate == Instant(seconds: 1_707_696_000))
        #expect(!run.flags("frank").contains("licensed_only_after_cutover"))
        // The customers file outranks a verdict, which only bounds the purchase.
        #expect(run.result("gina")?.customer.originalPurchaseDate == Instant(seconds: 1_714_521_600))
        #expect(run.flags("gina").contains("conflicting_customer_facts") && run.customerClass("gina") == .new)
    }

    @Test func unreadableVerdictsAreRejectedWithTheirLine() throws {
        let lines = [
            #"{"customer_id":"a","accountDetails":{"appLicensingVerdict":"MAYBE"},"requestDetails":{"timestampMillis":"1"}}"#,
            #"{"customer_id":"b","accountDetails":{"appLicensingVerdict":"LICENSED"},"requestDetails":{"timestampMillis":"x1"}}"#,
            Self.integrity("c", "LICENSED", "1707523200000", app: "com.other.app"),
            Self.lvl("d", 0, "1707523200000", app: "com.other.app"),
            #"{"customer_id":"e","signed_data":"0|1|com.example.maps"}"#,
            #"{"accountDetails":{"appLicensingVerdict":"LICENSED"},"customer_id":null}"#,
            Self.integrity("f", "LICENSED", "1707523200000"),
            // Before licensing began (2010-07-27): a default or a broken clock, not a purchase in 1970.
            Self.integrity("g", "LICENSED", "0"),
            Self.lvl("h", 0, "1280188799999"),
            Self.integrity("i", "LICENSED", "1280188800000"),
        ]
        let run = try AuditFixture.run(
            [FixtureFile("verdicts.jsonl", lines.joined(separator: "\n") + "\n")],
            policy: PolicySpec(sales: #"{"paid_app": ["com.example.maps"]}"#))
        let rejections = run.rejections("verdicts.jsonl")
        #expect(rejections.map(\.line) == [1, 2, 3, 4, 5, 6, 8, 9])
        #expect(
            rejections[6].reason
                == "requestDetails.timestampMillis '0' is before 2010-07-27, when Google Play's licensing began")
        #expect(rejections[7].reason.contains("signed_data's timestamp '1280188799999' is before 2010-07-27"))
        #expect(run.result("i")?.customer.originalPurchaseDate == Instant(seconds: 1_280_188_800))
        #expect(rejections[0].reason.contains("is not LICENSED, UNLICENSED or UNEVALUATED"))
        #expect(rejections[1].reason.contains("is not milliseconds since 1970"))
        #expect(rejections[2].reason.contains("is not an app sales.paid_app names"))
        #expect(rejections[5].reason.contains("customer_id is missing"))
        #expect(run.result("f")?.customer.originalPurchaseDate == Instant(seconds: 1_707_523_200))
    }

    @Test func timestampsAreMillisecondsWithinTheInstantsRead() {
        #expect(LicensingVerdict.instant(millis: "1707523200000") == Instant(seconds: 1_707_523_200))
        for text in ["", "-1", "1e12", "17075232000001234567", "999999999999999999", "253402300800000", " 1"] {
            #expect(LicensingVerdict.instant(millis: text) == nil, "\(text)")
        }
    }

    @Test func aJSONArrayOfVerdictsIsRecognised() throws {
        let file = try FilePeekFixture.peek("[" + Self.lvl("dan", 0, "1707609600000") + "]")
        #expect(try LicensingVerdictSource.recognize(&file.peek)?.description.format == .playLicensing)
        let other = try FilePeekFixture.peek(#"{"customer_id":"a","platform":"ios"}"# + "\n")
        #expect(try LicensingVerdictSource.recognize(&other.peek) == nil)
    }
}
