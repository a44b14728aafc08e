import Crypto
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// FORMATS.md §6: signature and chain checks of App Store JWS, each refusal with its exact reason.
struct SignatureVerifierTests {
    static let payload = #"{"transactionId":"1000000123456789","signedDate":1700000000000}"#
    static let signedAt = TestSigningChain.instant(2023, 11, 14)

    /// Parses and checks `jws` with a verifier trusting `roots`.
    func check(
        _ jws: String,
        roots: [[UInt8]],
        at validationTime: SignatureVerifier.ValidationTime = .signedDate,
        signedAt: Instant? = Self.signedAt
    ) throws -> SignatureOutcome {
        let verifier = SignatureVerifier(additionalRoots: roots, validationTime: validationTime)
        return verifier.check(try CompactJWS.parse(jws), signedAt: signedAt)
    }

    // MARK: - Own chain

    @Test("a JWS signed by a trusted chain, checked inside every certificate's window, verifies")
    func verifiesInWindow() throws {
        let chain = try TestSigningChain.make()
        let jws = try chain.sign(payloadJSON: Self.payload)
        #expect(try check(jws, roots: [chain.rootDER]) == .verified)
        #expect(try check(jws, roots: [chain.rootDER], at: .now(TestSigningChain.instant(2039, 12, 31))) == .verified)
    }

    @Test("one payload byte changed: bad signature")
    func tamperedPayload() throws {
        let chain = try TestSigningChain.make()
        let jws = TestSigningChain.tamperingPayload(of: try chain.sign(payloadJSON: Self.payload))
        #expect(try check(jws, roots: [chain.rootDER]) == .refused("bad signature"))
    }

    @Test("a signature that is not 64 raw bytes is refused as such")
    func signatureLength() throws {
        let chain = try TestSigningChain.make()
        let signed = try chain.sign(payloadJSON: Self.payload)
        let segments = signed.split(separator: ".").map(String.init)
        let jws = segments[0] + "." + segments[1] + ".AAAA"
        #expect(try check(jws, roots: [chain.rootDER]) == .refused("bad signature: 3 bytes, not the 64 of raw r||s"))
    }

    @Test(
        "alg other than ES256, or none, is refused",
        arguments: [
            ("none", #"alg is "none", not ES256"#),
            ("HS256", #"alg is "HS256", not ES256"#),
            ("ES384", #"alg is "ES384", not ES256"#),
        ])
    func algorithm(alg: String, reason: String) throws {
        let chain = try TestSigningChain.make()
        #expect(try check(chain.sign(payloadJSON: Self.payload, alg: alg), roots: [chain.rootDER]) == .refused(reason))
    }

    @Test("no alg at all is refused")
    func missingAlgorithm() throws {
        let chain = try TestSigningChain.make()
        let jws = try chain.sign(payloadJSON: Self.payload, alg: nil)
        #expect(try check(jws, roots: [chain.rootDER]) == .refused("no alg in the JWS header"))
    }

    @Test("no x5c is refused")
    func missingX5C() throws {
        let chain = try TestSigningChain.make()
        let jws = try chain.sign(payloadJSON: Self.payload, x5c: .omitted)
        #expect(try check(jws, roots: [chain.rootDER]) == .refused("no x5c certificate chain in the JWS header"))
    }

    @Test("x5c of 2 or 4 certificates is refused")
    func x5cLength() throws {
        let chain = try TestSigningChain.make()
        let two = try chain.sign(payloadJSON: Self.payload, x5c: .certificates([chain.leafDER, chain.intermediateDER]))
        #expect(try check(two, roots: [chain.rootDER]) == .refused("x5c holds 2 certificates, not 3"))
        let four = try chain.sign(
            payloadJSON: Self.payload, x5c: .certificates(chain.certificateChain + [chain.rootDER]))
        #expect(try check(four, roots: [chain.rootDER]) == .refused("x5c holds 4 certificates, not 3"))
    }

    @Test("an x5c entry that is not a certificate is refused, naming it")
    func unparsableCertificate() throws {
        let chain = try TestSigningChain.make()
        let jws = try chain.sign(
            payloadJSON: Self.payload,
            x5c: .certificates([chain.leafDER, [0x30, 0x03, 0x02, 0x01, 0x01], chain.rootDER]))
        #expect(try check(jws, roots: [chain.rootDER]) == .refused("x5c[1] is not a DER X.509 certificate"))
    }

    @Test("a chain to a root nobody trusts is refused, even with that root in x5c[2]")
    func unknownRoot() throws {
        let chain = try TestSigningChain.make()
        let other = try TestSigningChain.make(name: "Other")
        let jws = try chain.sign(payloadJSON: Self.payload)
        let reason = "unknown root: the chain does not end in Apple Root CA - G3 or a --trusted-root"
        #expect(try check(jws, roots: [other.rootDER]) == .refused(reason))
        #expect(try check(jws, roots: []) == .refused(reason))
    }

    @Test("x5c[2] is ignored: the leaf and intermediate must chain to a trusted root, whatever x5c[2] is")
    func x5cRootIgnored() throws {
        let chain = try TestSigningChain.make()
        let other = try TestSigningChain.make(name: "Other")
        let jws = try chain.sign(
            payloadJSON: Self.payload, x5c: .certificates([chain.leafDER, chain.intermediateDER, other.rootDER]))
        #expect(try check(jws, roots: [chain.rootDER]) == .verified)
    }

    @Test("a leaf that the intermediate did not issue is refused")
    func foreignLeaf() throws {
        let chain = try TestSigningChain.make()
        let sibling = try TestSigningChain.make(name: "Grandfather Test", under: chain)
        // The sibling's leaf names an intermediate of the same name, but another key signed it.
        let jws = try sibling.sign(
            payloadJSON: Self.payload, x5c: .certificates([sibling.leafDER, chain.intermediateDER, chain.rootDER]))
        #expect(
            try check(jws, roots: [chain.rootDER])
                == .refused("the intermediate certificate (x5c[1]) did not issue the leaf certificate (x5c[0])"))
        // Under its own intermediate, the same root verifies it.
        #expect(try check(sibling.sign(payloadJSON: Self.payload), roots: [chain.rootDER]) == .verified)
    }

    @Test("a leaf or an intermediate without Apple's marker OID is refused")
    func markerOIDs() throws {
        let noLeafMarker = try TestSigningChain.make(leafMarker: false)
        #expect(
            try check(noLeafMarker.sign(payloadJSON: Self.payload), roots: [noLeafMarker.rootDER])
                == .refused("leaf certificate lacks Apple marker OID 1.2.840.113635.100.6.11.1"))
        let noIntermediateMarker = try TestSigningChain.make(intermediateMarker: false)
        #expect(
            try check(noIntermediateMarker.sign(payloadJSON: Self.payload), roots: [noIntermediateMarker.rootDER])
                == .refused("intermediate certificate lacks Apple marker OID 1.2.840.113635.100.6.2.1"))
    }

    @Test("a chain expired, or not yet valid, at signedDate is refused with the instant and the certificate")
    func validityAtSignedDate() throws {
        let leafValidity = TestSigningChain.Validity(
            from: TestSigningChain.instant(2021, 1, 1), until: TestSigningChain.instant(2022, 1, 1))
        let chain = try TestSigningChain.make(leafValidity: leafValidity)
        let jws = try chain.sign(payloadJSON: Self.payload)
        #expect(
            try check(jws, roots: [chain.rootDER], signedAt: TestSigningChain.instant(2023, 6, 1))
                == .refused(
                    "certificate expired at signedDate 2023-06-01T00:00:00Z (leaf valid until 2022-01-01T00:00:00Z)"))
        #expect(
            try check(jws, roots: [chain.rootDER], signedAt: TestSigningChain.instant(2020, 6, 1))
                == .refused(
                    "certificate not yet valid at signedDate 2020-06-01T00:00:00Z (leaf valid from 2021-01-01T00:00:00Z)"
                ))
        #expect(try check(jws, roots: [chain.rootDER], signedAt: TestSigningChain.instant(2021, 6, 1)) == .verified)

        let intermediateValidity = TestSigningChain.Validity(
            from: TestSigningChain.instant(2020, 1, 1), until: TestSigningChain.instant(2021, 1, 1))
        let oldIntermediate = try TestSigningChain.make(intermediateValidity: intermediateValidity)
        #expect(
            try check(oldIntermediate.sign(payloadJSON: Self.payload), roots: [oldIntermediate.rootDER])
                == .refused(
                    "certificate expired at signedDate 2023-11-14T00:00:00Z (intermediate valid until 2021-01-01T00:00:00Z)"
                ))
    }

    @Test("--verify-at now checks the chain at the run's instant, not at signedDate")
    func verifyAtNow() throws {
        let leafValidity = TestSigningChain.Validity(
            from: TestSigningChain.instant(2021, 1, 1), until: TestSigningChain.instant(2022, 1, 1))
        let chain = try TestSigningChain.make(leafValidity: leafValidity)
        let jws = try chain.sign(payloadJSON: Self.payload)
        let signedAt = TestSigningChain.instant(2021, 6, 1)
        let now = TestSigningChain.instant(2026, 1, 2)
        #expect(try check(jws, roots: [chain.rootDER], signedAt: signedAt) == .verified)
        #expect(
            try check(jws, roots: [chain.rootDER], at: .now(now), signedAt: signedAt)
                == .refused("certificate expired at now 2026-01-02T00:00:00Z (leaf valid until 2022-01-01T00:00:00Z)"))
        #expect(
            try check(jws, roots: [chain.rootDER], at: .now(TestSigningChain.instant(2021, 2, 1)), signedAt: nil)
                == .verified)
    }

    @Test("no signedDate to verify at is refused under the default, and verifies under --verify-at now")
    func missingSignedDate() throws {
        let chain = try TestSigningChain.make()
        let jws = try chain.sign(payloadJSON: #"{"notificationType":"TEST"}"#)
        #expect(
            try check(jws, roots: [chain.rootDER], signedAt: nil)
                == .refused("no signedDate to verify at; use --verify-at now"))
        #expect(
            try check(jws, roots: [chain.rootDER], at: .now(TestSigningChain.instant(2025, 1, 1)), signedAt: nil)
                == .verified)
    }

    @Test(
        "a payload that says it is Xcode or LocalTesting data is checked like any other: the claim is unverified",
        arguments: ["Xcode", "LocalTesting"])
    func selfSignedClaimIsNotTrusted(environment: String) throws {
        let chain = try TestSigningChain.make()
        let payload = #"{"transactionId":"1","environment":"\#(environment)","signedDate":1700000000000}"#
        let jws = try chain.sign(payloadJSON: payload, x5c: .certificates([chain.leafDER]), kid: "Apple_Xcode_Key")
        #expect(try check(jws, roots: []) == .refused("x5c holds 1 certificate, not 3"))
        #expect(try check(jws, roots: [chain.rootDER]) == .refused("x5c holds 1 certificate, not 3"))
        let none = try chain.sign(payloadJSON: payload, alg: "none")
        #expect(try check(none, roots: [chain.rootDER]) == .refused(#"alg is "none", not ES256"#))
    }

    @Test("a cached chain is reused inside its window and validated anew outside it")
    func cacheRespectsWindow() throws {
        let leafValidity = TestSigningChain.Validity(
            from: TestSigningChain.instant(2021, 1, 1), until: TestSigningChain.instant(2022, 1, 1))
        let chain = try TestSigningChain.make(leafValidity: leafValidity)
        let verifier = SignatureVerifier(additionalRoots: [chain.rootDER], validationTime: .signedDate)
        let jws = try CompactJWS.parse(chain.sign(payloadJSON: Self.payload))
        let tampered = try CompactJWS.parse(
            TestSigningChain.tamperingPayload(of: chain.sign(payloadJSON: Self.payload)))
        for month: Int64 in [3, 6, 12] {
            let at = TestSigningChain.instant(2021, month, 1)
            #expect(verifier.check(jws, signedAt: at) == .verified)
            #expect(verifier.check(tampered, signedAt: at) == .refused("bad signature"))
        }
        let late = TestSigningChain.instant(2022, 1, 2)
        let expired = "certificate expired at signedDate 2022-01-02T00:00:00Z (leaf valid until 2022-01-01T00:00:00Z)"
        #expect(verifier.check(jws, signedAt: late) == .refused(expired))
        #expect(verifier.check(jws, signedAt: late) == .refused(expired))
        #expect(verifier.check(jws, signedAt: TestSigningChain.instant(2021, 7, 1)) == .verified)
    }

    @Test("many threads checking at once share the cache safely")
    func concurrentChecks() throws {
        let chains = try (0..<3).map { try TestSigningChain.make(name: "Chain \($0)") }
        let verifier = SignatureVerifier(additionalRoots: chains.map(\.rootDER), validationTime: .signedDate)
        let signed = try chains.map { try CompactJWS.parse($0.sign(payloadJSON: Self.payload)) }
        let outcomes = Mutex<[SignatureOutcome]>([])
        DispatchQueue.concurrentPerform(iterations: 60) { index in
            let outcome = verifier.check(signed[index % signed.count], signedAt: Self.signedAt)
            outcomes.withLock { $0.append(outcome) }
        }
        #expect(outcomes.withLock { $0 } == Array(repeating: .verified, count: 60))
    }

    @Test("a check from inside a task (the concurrency pool) completes")
    func fromTask() async throws {
        let chain = try TestSigningChain.make()
        let jws = try CompactJWS.parse(chain.sign(payloadJSON: Self.payload))
        let verifier = SignatureVerifier(additionalRoots: [chain.rootDER], validationTime: .signedDate)
        let outcomes = await withTaskGroup(of: SignatureOutcome.self) { group in
            for _ in 0..<8 { group.addTask { verifier.check(jws, signedAt: Self.signedAt) } }
            return await group.reduce(into: [SignatureOutcome]()) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: .verified, count: 8))
    }

    // MARK: - Trusted root files

    @Test("a --trusted-root file is one DER certificate or PEM holding one or more")
    func loadRoots() throws {
        let first = try TestSigningChain.make(name: "First")
        let second = try TestSigningChain.make(name: "Second")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let der = folder.appendingPathComponent("root.der")
        try Data(first.rootDER).write(to: der)
        #expect(try SignatureVerifier.loadRoots(path: der.path) == [first.rootDER])

        let pem = folder.appendingPathComponent("roots.pem")
        let text: String = [first.rootDER, second.rootDER].map { bytes in
            let body = Data(bytes).base64EncodedString(options: .lineLength64Characters)
            return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
        }.joined()
        try Data(("some comment\n" + text).utf8).write(to: pem)
        let roots = try SignatureVerifier.loadRoots(path: pem.path)
        #expect(roots == [first.rootDER, second.rootDER])
        let jws = try second.sign(payloadJSON: Self.payload)
        #expect(try check(jws, roots: roots) == .verified)

        let junk = folder.appendingPathComponent("junk.der")
        try Data("not a certificate".utf8).write(to: junk)
        #expect(
            throws: GrandfatherError.input(
                file: junk.path, line: nil, message: "trusted root is not a DER or PEM X.509 certificate")
        ) { try SignatureVerifier.loadRoots(path: junk.path) }
        let missing = folder.appendingPathComponent("missing.pem").path
        #expect(throws: GrandfatherError.usage("\(missing): trusted root file not found")) {
            try SignatureVerifier.loadRoots(path: missing)
        }
        let key = folder.appendingPathComponent("key.pem")
        try Data("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8).write(to: key)
        #expect(
            throws: GrandfatherError.input(
                file: key.path, line: nil, message: "trusted root PEM holds no CERTIFICATE block")
        ) { try SignatureVerifier.loadRoots(path: key.path) }
    }
}

// MARK: - Public fixtures

/// The App Store server library's mock JWS and a real production notification
/// (`Fixtures/AppStore`, see FIXTURES.md).
extension SignatureVerifierTests {
    static func fixture(_ path: String) throws -> URL {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return folder.appendingPathComponent("AppStore").appendingPathComponent(path)
    }

    static func fixtureJWS(_ path: String) throws -> CompactJWS {
        try CompactJWS.parse(String(decoding: Data(contentsOf: fixture(path)), as: UTF8.self))
    }

    /// The payload's `signedDate` (epoch milliseconds) as an instant; `nil` when absent.
    static func signedDate(of jws: CompactJWS) throws -> Instant? {
        let members = try #require(try jws.payloadJSON().members)
        guard case .number(let text)? = members.first(where: { $0.key == "signedDate" })?.value else { return nil }
        return Instant(microseconds: try #require(Int64(text)) * 1000)
    }

    /// The present, from the test's clock.
    static var now: Instant { Instant(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)) }

    static var testCA: [UInt8] {
        get throws { Array(try Data(contentsOf: fixture("server-library/certs/testCA.der"))) }
    }

    @Test(
        "the server library's mock JWS verify against its testCA.der at their signedDate",
        arguments: ["transactionInfo", "renewalInfo", "testNotification"])
    func serverLibraryMockData(name: String) throws {
        let jws = try Self.fixtureJWS("server-library/mock_signed_data/\(name)")
        let signedAt = try #require(try Self.signedDate(of: jws))
        let verifier = SignatureVerifier(additionalRoots: [try Self.testCA], validationTime: .signedDate)
        #expect(verifier.check(jws, signedAt: signedAt) == .verified)
        // Without testCA.der only Apple's root is trusted.
        let appleOnly = SignatureVerifier(validationTime: .signedDate)
        #expect(
            appleOnly.check(jws, signedAt: signedAt)
                == .refused("unknown root: the chain does not end in Apple Root CA - G3 or a --trusted-root"))
    }

    @Test("wrongBundleId has no signedDate: refused at signedDate, verified at now")
    func serverLibraryWithoutSignedDate() throws {
        let jws = try Self.fixtureJWS("server-library/mock_signed_data/wrongBundleId")
        #expect(try Self.signedDate(of: jws) == nil)
        let atSignedDate = SignatureVerifier(additionalRoots: [try Self.testCA], validationTime: .signedDate)
        #expect(
            atSignedDate.check(jws, signedAt: nil)
                == .refused("no signedDate to verify at; use --verify-at now"))
        // Its certificates run to 2033.
        let atNow = SignatureVerifier(additionalRoots: [try Self.testCA], validationTime: .now(Self.now))
        #expect(atNow.check(jws, signedAt: nil) == .verified)
    }

    @Test("missingX5CHeaderClaim is refused for its missing x5c")
    func serverLibraryMissingX5C() throws {
        let jws = try Self.fixtureJWS("server-library/mock_signed_data/missingX5CHeaderClaim")
        let verifier = SignatureVerifier(additionalRoots: [try Self.testCA], validationTime: .now(Self.now))
        #expect(
            verifier.check(jws, signedAt: nil)
                == .refused("no x5c certificate chain in the JWS header"))
    }

    @Test("the server library's *_INVALID_OID certificates are refused for the marker OID they lack")
    func serverLibraryInvalidOIDs() throws {
        func certificate(_ name: String) throws -> [UInt8] {
            Array(try Data(contentsOf: Self.fixture("server-library/certs/\(name).der")))
        }
        let verifier = SignatureVerifier(additionalRoots: [try Self.testCA], validationTime: .signedDate)
        let april2023 = Instant(seconds: 1_681_312_846)
        func outcome(_ x5c: [[UInt8]]) -> SignatureOutcome {
            // The chain is refused before the signature, so any signature will do.
            let header = CompactJWS.Header(algorithm: "ES256", certificateChain: x5c, keyID: nil)
            let jws = CompactJWS(
                header: header, payload: [], signature: Array(repeating: 0, count: 64), signingInput: [])
            return verifier.check(jws, signedAt: april2023)
        }
        let root = try certificate("test_root")
        #expect(
            outcome([try certificate("test_leaf_INVALID_OID"), try certificate("test_intermediate"), root])
                == .refused("leaf certificate lacks Apple marker OID 1.2.840.113635.100.6.11.1"))
        #expect(
            outcome([
                try certificate("test_leaf_for_invalid_intermediate"), try certificate("test_intermediate_INVALID_OID"),
                root,
            ])
                == .refused("intermediate certificate lacks Apple marker OID 1.2.840.113635.100.6.2.1"))
        // The valid pair passes the chain and fails only on the made-up signature.
        #expect(
            outcome([try certificate("test_leaf"), try certificate("test_intermediate"), root])
                == .refused("bad signature"))
    }

    @Test("a real App Store notification verifies against the pinned root at signedDate, and has expired since")
    func realSignedNotification() throws {
        let data = try Data(contentsOf: Self.fixture("real-signed/test-notification-signed-payload.json"))
        let wrapper = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let jws = try CompactJWS.parse(try #require(wrapper["signedPayload"] as? String))
        let signedAt = try #require(try Self.signedDate(of: jws))
        #expect(signedAt == Instant(microseconds: 1_662_122_492_884_000))

        let atSignedDate = SignatureVerifier(validationTime: .signedDate)
        #expect(atSignedDate.check(jws, signedAt: signedAt) == .verified)

        let atNow = SignatureVerifier(validationTime: .now(Self.now))
        let outcome = atNow.check(jws, signedAt: signedAt)
        guard case .refused(let reason) = outcome else {
            Issue.record("expected a refusal at now, got \(outcome)")
            return
        }
        #expect(reason.hasPrefix("certificate expired at now "))
        #expect(reason.hasSuffix("(leaf valid until 2023-09-24T02:50:33Z)"))

        let tampered = try CompactJWS.parse(
            TestSigningChain.tamperingPayload(of: try #require(wrapper["signedPayload"] as? String)))
        #expect(atSignedDate.check(tampered, signedAt: signedAt) == .refused("bad signature"))
    }

    @Test("the pinned Apple Root CA - G3 hashes to its published fingerprint and is what Apple sends as x5c[2]")
    func pinnedRoot() throws {
        #expect(AppleRootCA.der.count == 583)
        #expect(AppleRootCA.fingerprint(of: AppleRootCA.der) == AppleRootCA.sha256Fingerprint)
        #expect(AppleRootCA.sha256Fingerprint == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
        let data = try Data(contentsOf: Self.fixture("real-signed/test-notification-signed-payload.json"))
        let wrapper = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let jws = try CompactJWS.parse(try #require(wrapper["signedPayload"] as? String))
        #expect(jws.header.certificateChain?.last == AppleRootCA.der)
    }
}
