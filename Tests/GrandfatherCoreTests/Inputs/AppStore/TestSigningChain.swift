import Crypto
import Foundation
import SwiftASN1
import X509

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// A root → intermediate → leaf chain of fresh P-256 keys, shaped like Apple's App Store chain
/// (the intermediate carries OID 1.2.840.113635.100.6.2.1, the leaf 1.2.840.113635.100.6.11.1),
/// that signs JSON payloads into compact JWS as the App Store does.
///
/// Trust it by passing `rootDER` as an additional root. Options make the shapes tests need:
/// a marker OID left out, validity windows, a chain under another chain's root, and JWS with
/// any `alg`, no `x5c` or any `x5c`.
struct TestSigningChain: Sendable {
    /// A certificate's validity, both ends included.
    struct Validity: Sendable {
        var from: Instant
        var until: Instant

        /// 2020-01-01 to 2040-01-01: valid at any date a test is likely to use.
        static let standard = Validity(
            from: TestSigningChain.instant(2020, 1, 1), until: TestSigningChain.instant(2040, 1, 1))
    }

    /// The `x5c` a JWS header carries.
    enum X5C: Sendable {
        /// `[leaf, intermediate, root]`, as Apple sends it.
        case chain
        /// No `x5c` member.
        case omitted
        /// These DER certificates, in this order.
        case certificates([[UInt8]])
    }

    let rootKey: P256.Signing.PrivateKey
    let intermediateKey: P256.Signing.PrivateKey
    let leafKey: P256.Signing.PrivateKey
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate
    let rootDER: [UInt8]
    let intermediateDER: [UInt8]
    let leafDER: [UInt8]

    /// `[leaf, intermediate, root]` DER, as `x5c` carries them.
    var certificateChain: [[UInt8]] { [leafDER, intermediateDER, rootDER] }

    /// Makes a chain.
    ///
    /// - Parameters:
    ///   - name: Common name prefix of the three certificates.
    ///   - rootValidity, intermediateValidity, leafValidity: Each certificate's window.
    ///   - intermediateMarker: Whether the intermediate carries 1.2.840.113635.100.6.2.1.
    ///   - leafMarker: Whether the leaf carries 1.2.840.113635.100.6.11.1.
    ///   - under: Another chain whose root (certificate and key) issues this intermediate, and
    ///     `rootValidity` is then unused; by default this chain has a root of its own.
    static func make(
        name: String = "Grandfather Test",
        rootValidity: Validity = .standard,
        intermediateValidity: Validity = .standard,
        leafValidity: Validity = .standard,
        intermediateMarker: Bool = true,
        leafMarker: Bool = true,
        under other: TestSigningChain? = nil
    ) throws -> TestSigningChain {
        let rootKey = other?.rootKey ?? P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("\(name) Root CA")
            OrganizationName("Grandfather Tests")
        }
        let root =
            try other?.root
            ?? Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
                notValidBefore: Date(rootValidity.from), notValidAfter: Date(rootValidity.until),
                issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Certificate.Extensions([
                    Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
                    Certificate.Extension(KeyUsage(keyCertSign: true, cRLSign: true), critical: true),
                ]),
                issuerPrivateKey: .init(rootKey))
        let intermediateName = try DistinguishedName {
            CommonName("\(name) Intermediate CA")
            OrganizationName("Grandfather Tests")
        }
        var intermediateExtensions = [
            try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: 0), critical: true),
            try Certificate.Extension(KeyUsage(keyCertSign: true, cRLSign: true), critical: true),
        ]
        if intermediateMarker { intermediateExtensions.append(marker([1, 2, 840, 113_635, 100, 6, 2, 1])) }
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: Date(intermediateValidity.from), notValidAfter: Date(intermediateValidity.until),
            issuer: root.subject, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions(intermediateExtensions), issuerPrivateKey: .init(rootKey))
        let leafName = try DistinguishedName {
            CommonName("\(name) Receipt Signing")
            OrganizationName("Grandfather Tests")
        }
        var leafExtensions = [
            try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true),
            try Certificate.Extension(KeyUsage(digitalSignature: true), critical: true),
        ]
        if leafMarker { leafExtensions.append(marker([1, 2, 840, 113_635, 100, 6, 11, 1])) }
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: Date(leafValidity.from), notValidAfter: Date(leafValidity.until),
            issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions(leafExtensions), issuerPrivateKey: .init(intermediateKey))
        return TestSigningChain(
            rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey,
            root: root, intermediate: intermediate, leaf: leaf,
            rootDER: try der(root), intermediateDER: try der(intermediate), leafDER: try der(leaf))
    }

    /// Signs `payloadJSON` (used byte for byte) with the leaf's key into a compact JWS.
    ///
    /// - Parameters:
    ///   - alg: The header's `alg`; `nil` leaves it out. The signature is ES256 whatever it says.
    ///   - x5c: The header's certificates.
    ///   - kid: The header's `kid`, when given (Xcode's is `Apple_Xcode_Key`).
    func sign(payloadJSON: String, alg: String? = "ES256", x5c: X5C = .chain, kid: String? = nil) throws -> String {
        var members: [String] = []
        if let alg { members.append("\"alg\":\(Self.jsonString(alg))") }
        switch x5c {
        case .chain: members.append(Self.x5cMember(certificateChain))
        case .omitted: break
        case .certificates(let certificates): members.append(Self.x5cMember(certificates))
        }
        if let kid { members.append("\"kid\":\(Self.jsonString(kid))") }
        let header = Self.base64URL(Array("{\(members.joined(separator: ","))}".utf8))
        let signingInput = header + "." + Self.base64URL(Array(payloadJSON.utf8))
        let signature = try leafKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Self.base64URL(Array(signature.rawRepresentation))
    }

    /// `jws` with one byte of its decoded payload changed (at `index`, by default the middle),
    /// re-encoded: a well-formed JWS whose signature no longer holds.
    static func tamperingPayload(of jws: String, at index: Int? = nil) -> String {
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3, var payload = CompactJWS.base64URLDecode(segments[1].utf8), !payload.isEmpty
        else { return jws }
        let position = index ?? payload.count / 2
        payload[position] = payload[position] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        return segments[0] + "." + base64URL(payload) + "." + segments[2]
    }

    /// base64url without padding (RFC 7515 §2).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Midnight UTC of a calendar day.
    static func instant(_ year: Int64, _ month: Int64, _ day: Int64) -> Instant {
        Instant(seconds: CivilDate.toDays(year: year, month: month, day: day) * 86_400)
    }

    private static func x5cMember(_ certificates: [[UInt8]]) -> String {
        let values = certificates.map { "\"" + Data($0).base64EncodedString() + "\"" }
        return "\"x5c\":[\(values.joined(separator: ","))]"
    }

    private static func jsonString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// An Apple marker extension: non-critical, its value ASN.1 NULL, as Apple's certificates have it.
    private static func marker(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}

extension Date {
    fileprivate init(_ instant: Instant) {
        self.init(timeIntervalSince1970: Double(instant.microseconds) / 1_000_000)
    }
}
