import Foundation
import PropertyBased
import Testing

@testable import GrandfatherCore

/// SPEC §9, "Trust": random forged variants of the verified App Store records of three
/// customers (environment, receipt type, `alg`, `x5c`, signing key, `signedDate`, content,
/// nesting in a notification, decoded under `--trust-decoded`), read with or without
/// `--accept-self-signed`, never change any verified customer's class, flags or entitlements.
@Suite struct ForgedJWSPropertyTests {
    static let policy = PolicySpec(apple: #"{"bundle_id": "com.example.app"}"#)
    static let asOf = "2024-06-01T00:00:00Z"

    /// A grandfathered subscriber (A), a subscriber (B) and a lapsed, refunded buyer (C).
    static var genuine: [[String: Any]] {
        [
            appTransaction("A", version: "100"), appTransaction("B", version: "300"),
            appTransaction("C", version: "300"),
            transaction(
                "a1", customer: "A", product: "pro.monthly", type: "Auto-Renewable Subscription", expires: true),
            transaction(
                "b1", customer: "B", product: "pro.monthly", type: "Auto-Renewable Subscription", expires: true),
            transaction("c1", customer: "C", product: "pro.lifetime", type: "Non-Consumable", revoked: true),
        ]
    }

    static func appTransaction(_ id: String, version: String) -> [String: Any] {
        [
            "receiptType": "Production", "bundleId": "com.example.app", "originalApplicationVersion": version,
            "originalPurchaseDate": 1_672_531_200_000, "originalPlatform": "iOS",
            "receiptCreationDate": 1_714_521_600_000, "appTransactionId": id,
        ]
    }

    static func transaction(
        _ id: String, customer: String, product: String, type: String, expires: Bool = false, revoked: Bool = false
    ) -> [String: Any] {
        var payload: [String: Any] = [
            "transactionId": id, "originalTransactionId": id, "bundleId": "com.example.app", "productId": product,
            "type": type, "purchaseDate": 1_714_521_600_000, "inAppOwnershipType": "PURCHASED",
            "signedDate": 1_714_521_601_000, "environment": "Production", "appTransactionId": customer,
        ]
        if expires { payload["expiresDate"] = 1_719_792_000_000 }
        if revoked { payload["revocationDate"] = 1_715_000_000_000 }
        return payload
    }

    /// One forgery: which record, and how it is changed, signed and delivered.
    /// Each choice is an index into the cases `forge`, `sign` and the test's delivery switch
    /// over: `record` into `genuine`; `delivery` 0 a JWS line, 1 nested in a notification, 2
    /// decoded under `--trust-decoded`.
    struct Forgery: Sendable, CustomStringConvertible {
        var record, environment, algorithm, signing, signedDate, content, delivery: Int
        var acceptSelfSigned: Bool

        var description: String {
            "record \(record) env \(environment) alg \(algorithm) signing \(signing) signedDate \(signedDate) "
                + "content \(content) delivery \(delivery) accept \(acceptSelfSigned)"
        }
    }

    static let forgery = zip(
        Gen.int(in: 0...5), Gen.int(in: 0...4), Gen.int(in: 0...3), Gen.int(in: 0...3), Gen.int(in: 0...4),
        Gen.int(in: 0...3), Gen.int(in: 0...2), Gen.bool()
    ).map {
        Forgery(
            record: $0, environment: $1, algorithm: $2, signing: $3, signedDate: $4, content: $5, delivery: $6,
            acceptSelfSigned: $7)
    }

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The forged payload.
    static func forge(_ original: [String: Any], _ forgery: Forgery) -> [String: Any] {
        var payload = original
        let key = payload["receiptType"] != nil ? "receiptType" : "environment"
        switch forgery.environment {
        case 0: break
        case 1: payload[key] = "Xcode"
        case 2: payload[key] = "LocalTesting"
        case 3: payload[key] = "Sandbox"
        default: payload[key] = nil
        }
        let dateKey = payload["receiptCreationDate"] != nil ? "receiptCreationDate" : "signedDate"
        let date = (payload[dateKey] as? Int) ?? 0
        switch forgery.signedDate {
        case 0: payload[dateKey] = date + 1000
        case 1: payload[dateKey] = date - 1000
        case 2: break
        case 3: payload[dateKey] = nil
        default: payload[dateKey] = 253_402_300_800_000
        }
        switch forgery.content {
        case 0: payload["revocationDate"] = 1_715_000_000_000
        case 1: payload["expiresDate"] = payload["purchaseDate"]
        case 2:
            payload["appTransactionId"] = ["A", "B", "C"].filter { $0 != payload["appTransactionId"] as? String }[0]
        default: payload["originalApplicationVersion"] = payload["receiptType"] != nil ? "1" : nil
        }
        return payload
    }

    /// The forged payload as a JWS the trusted chain never signed.
    static func sign(
        _ payload: [String: Any], _ forgery: Forgery, genuine: String, attacker: TestSigningChain
    ) throws -> String {
        let text = try json(payload)
        let alg = ["none", "ES256", "HS256", nil][forgery.algorithm]
        switch forgery.signing {
        case 0: return try attacker.sign(payloadJSON: text, alg: alg)
        case 1:
            // The genuine header and signature over another payload.
            let parts = genuine.split(separator: ".").map(String.init)
            return parts[0] + "." + TestSigningChain.base64URL(Array(text.utf8)) + "." + parts[2]
        case 2: return try attacker.sign(payloadJSON: text, alg: alg, x5c: .certificates([attacker.leafDER]))
        default:
            let header = TestSigningChain.base64URL(Array((alg.map { #"{"alg":"\#($0)"}"# } ?? "{}").utf8))
            return header + "." + TestSigningChain.base64URL(Array(text.utf8)) + ".AAAA"
        }
    }

    /// What each of A, B and C came out as.
    static func verdicts(_ run: FixtureRun) -> [String] {
        ["A", "B", "C"].map { id in
            "\(id): \(run.customerClass(id).map(\.rawValue) ?? "absent") \(run.flags(id)) \(run.grants(id))"
        }
    }

    @Test func forgedVariantsNeverMoveAVerifiedCustomer() async throws {
        let chain = try TestSigningChain.make()
        let attacker = try TestSigningChain.make()
        let signed = try Self.genuine.map { try chain.sign(payloadJSON: try Self.json($0)) }
        let files = [
            FixtureFile("apps.txt", signed[0..<3].joined(separator: "\n") + "\n"),
            FixtureFile("transactions.txt", signed[3...].joined(separator: "\n") + "\n"),
        ]
        let roots: [(name: String, bytes: [UInt8])] = [("root.der", chain.rootDER)]
        func checks(_ forgery: Forgery) -> SignatureChecks {
            var checks = SignatureChecks()
            checks.trustedRoots = ["root.der"]
            checks.trustDecoded = forgery.delivery == 2
            checks.acceptSelfSigned = forgery.acceptSelfSigned
            return checks
        }
        let baseline = Self.verdicts(
            try AuditFixture.run(
                files, policy: Self.policy, asOf: Self.asOf, binaryFiles: roots,
                signatures: SignatureChecks.trusting("root.der")))
        #expect(baseline[0].hasPrefix("A: grandfathered") && baseline[1].hasPrefix("B: subscriber"))
        #expect(baseline[2].hasPrefix("C: lapsed"))

        await propertyCheck(count: 80, input: Self.forgery) { forgery in
            let payload = Self.forge(Self.genuine[forgery.record], forgery)
            let jws = try Self.sign(payload, forgery, genuine: signed[forgery.record], attacker: attacker)
            let forged: FixtureFile
            switch forgery.delivery {
            case 0: forged = FixtureFile("forged.txt", jws + "\n")
            case 1:
                let inner = forgery.record < 3 ? "signedAppTransactionInfo" : "signedTransactionInfo"
                let container = forgery.record < 3 ? "appData" : "data"
                var data: [String: Any] = [
                    "environment": "Xcode", "bundleId": "com.example.app", inner: jws, "status": 3,
                ]
                if forgery.record >= 3 {
                    // Renewal info saying the subscription is in billing retry, self-signed.
                    let renewal: [String: Any] = [
                        "originalTransactionId": payload["originalTransactionId"] ?? "", "autoRenewStatus": 0,
                        "environment": "Xcode", "signedDate": 1_714_521_700_000,
                    ]
                    data["signedRenewalInfo"] = try attacker.sign(payloadJSON: try Self.json(renewal), alg: "none")
                }
                let notification: [String: Any] = [
                    "notificationType": "DID_RENEW", "signedDate": 1_714_521_700_000, container: data,
                ]
                let outer = try attacker.sign(payloadJSON: try Self.json(notification), alg: "none")
                forged = FixtureFile("forged.jsonl", #"{"signedPayload": ""# + outer + "\"}\n")
            default: forged = FixtureFile("forged.json", "[" + (try Self.json(payload)) + "]\n")
            }
            let run = try AuditFixture.run(
                files + [forged], policy: Self.policy, asOf: Self.asOf, binaryFiles: roots, signatures: checks(forgery))
            #expect(Self.verdicts(run) == baseline, "\(forgery)")
        }
    }
}

extension SignatureChecks {
    /// Verifying against Apple's root and the fixture's `root`.
    static func trusting(_ root: String) -> SignatureChecks {
        var checks = SignatureChecks()
        checks.trustedRoots = [root]
        return checks
    }
}
