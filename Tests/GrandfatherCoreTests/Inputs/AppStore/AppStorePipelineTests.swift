import Foundation
import Testing

@testable import GrandfatherCore

/// App Store files through the whole pipeline, signed by the test's own chain: customers
/// linked across files, refusals as rejected rows with file and line, and trust accounted.
@Suite struct AppStorePipelineTests {
    static let policy = PolicySpec(apple: "{\"bundle_id\": \"com.example.app\", \"environment\": \"Production\"}")
    static let asOf = "2024-06-01T00:00:00Z"

    private static func appTransaction(_ id: String, version: String) -> String {
        """
        {"receiptType":"Production","bundleId":"com.example.app","originalApplicationVersion":"\(version)",\
        "originalPurchaseDate":1672531200000,"originalPlatform":"iOS","receiptCreationDate":1714521600000,\
        "appTransactionId":"\(id)"}
        """
    }

    private static func transaction(_ id: String, chain: String, app: String?, bundle: String = "com.example.app")
        -> String
    {
        let identity = app.map { ",\"appTransactionId\":\"\($0)\"" } ?? ""
        return """
            {"transactionId":"\(id)","originalTransactionId":"\(chain)","bundleId":"\(bundle)",\
            "productId":"pro.lifetime","type":"Non-Consumable","purchaseDate":1704067200000,\
            "inAppOwnershipType":"PURCHASED","signedDate":1704067201000,"environment":"Production"\(identity)}
            """
    }

    /// The app transaction of A, and four transactions: A's own, one of A's subscription
    /// without identity, one of a subscription nobody owns, and one for another app.
    private static func files(_ chain: TestSigningChain) throws -> [FixtureFile] {
        [
            FixtureFile(
                "app-transactions.txt", try chain.sign(payloadJSON: appTransaction("A", version: "100")) + "\n"),
            FixtureFile(
                "transactions.txt",
                [
                    try chain.sign(payloadJSON: transaction("t1", chain: "t1", app: "A")),
                    try chain.sign(payloadJSON: transaction("t2", chain: "t1", app: nil)),
                    try chain.sign(payloadJSON: transaction("u1", chain: "u1", app: nil)),
                    try chain.sign(payloadJSON: transaction("x1", chain: "x1", app: "A", bundle: "com.other")),
                ].joined(separator: "\n") + "\n"),
        ]
    }

    private static func trusting(_ chain: TestSigningChain) -> (SignatureChecks, [(name: String, bytes: [UInt8])]) {
        var checks = SignatureChecks()
        checks.trustedRoots = ["root.der"]
        return (checks, [("root.der", chain.rootDER)])
    }

    @Test func customersLinkAcrossFilesAndAnUnownedSubscriptionStandsAlone() throws {
        let chain = try TestSigningChain.make()
        let (checks, roots) = Self.trusting(chain)
        let run = try AuditFixture.run(
            try Self.files(chain), policy: Self.policy, asOf: Self.asOf, binaryFiles: roots, signatures: checks)
        #expect(run.ids == ["A", "unlinked:u1"])
        #expect(run.customerClass("A") == .grandfathered)
        #expect(run.flags("unlinked:u1").contains("unlinked_transactions"))
        #expect(run.flags("unlinked:u1").contains("orphan_transactions"))
        #expect(!run.flags("A").contains("unlinked_transactions"))
        // The other app's transaction is refused at its line, and the files still add up.
        #expect(
            run.audit.rejections.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line)" } == [
                "transactions.txt:4"
            ])
        #expect(run.audit.rejections.first?.reason.hasPrefix("bundle mismatch") == true)
        for input in run.audit.inputs {
            #expect(input.rowsRead == input.rowsAccepted + input.rowsRejected)
            #expect(input.format == .appStore)
        }
        #expect(run.audit.appStore?.rowsByTrust == ["verified": 4])
        #expect(run.audit.appStore?.unlinkedCustomers == 1)
    }

    @Test func withoutItsRootEverySignedRowIsRefusedAsUnknownRoot() throws {
        let chain = try TestSigningChain.make()
        let run = try AuditFixture.run(try Self.files(chain), policy: Self.policy, asOf: Self.asOf)
        #expect(run.ids.isEmpty)
        // The bundle check comes after the signature: an unverified payload's content is not read.
        #expect(run.audit.rejections.count == 5)
        #expect(run.audit.rejections.allSatisfy { $0.reason.hasPrefix("unknown root") })
    }

    @Test func aTamperedPayloadIsABadSignatureAtItsLine() throws {
        let chain = try TestSigningChain.make()
        let (checks, roots) = Self.trusting(chain)
        let good = try chain.sign(payloadJSON: Self.transaction("t1", chain: "t1", app: "A"))
        let files = [
            FixtureFile("app-transactions.txt", try chain.sign(payloadJSON: Self.appTransaction("A", version: "100"))),
            FixtureFile("t.txt", "\n" + TestSigningChain.tamperingPayload(of: good) + "\n"),
        ]
        let run = try AuditFixture.run(
            files, policy: Self.policy, asOf: Self.asOf, binaryFiles: roots, signatures: checks)
        #expect(run.audit.rejections.map(\.line) == [2])
        #expect(run.audit.rejections.first?.reason == "bad signature")
    }

    @Test func decodedPayloadsAreReadOnlyWhenTrustedAndTheRunSaysSo() throws {
        let files = [
            FixtureFile("app.json", Self.appTransaction("A", version: "300")),
            FixtureFile("t.json", Self.transaction("t1", chain: "t1", app: "A")),
        ]
        let refused = try AuditFixture.run(files, policy: Self.policy, asOf: Self.asOf)
        #expect(refused.ids.isEmpty)
        #expect(refused.audit.rejections.allSatisfy { $0.reason.contains("read only with --trust-decoded") })

        var checks = SignatureChecks()
        checks.trustDecoded = true
        let trusted = try AuditFixture.run(files, policy: Self.policy, asOf: Self.asOf, signatures: checks)
        #expect(trusted.ids == ["A"])
        #expect(trusted.customerClass("A") == .subscriber)
        #expect(trusted.grants("A") == [Grant("premium", .purchase)])
        #expect(trusted.audit.appStore?.rowsByTrust == ["unsigned": 2])
        #expect(AppStoreSection.warning(trusted.audit.appStore)?.contains("--trust-decoded") == true)
        #expect(String(decoding: SummaryMarkdown.render(trusted.audit), as: UTF8.self).contains("--trust-decoded"))
    }

    @Test func typedRecordsHaveTheirTextsCheckedAsARowsAre() throws {
        var checks = SignatureChecks()
        checks.trustDecoded = true
        let files = [
            FixtureFile("app.json", Self.appTransaction("A", version: "3\\u0000")),
            FixtureFile("t.json", Self.transaction("t\\u00001", chain: "t1", app: "A")),
        ]
        let run = try AuditFixture.run(files, policy: Self.policy, asOf: Self.asOf, signatures: checks)
        #expect(
            run.audit.rejections.map(\.reason).sorted() == [
                "original_app_version contains a NUL byte", "transaction_id contains a NUL byte",
            ])
        #expect(run.audit.inputs.allSatisfy { $0.rowsRead == $0.rowsAccepted + $0.rowsRejected })
    }
}
