import GrandfatherEngine

/// A JWS in compact serialization (RFC 7515 §7.1), as the App Store signs transactions,
/// renewal info, app transactions and notifications: `header.payload.signature`, each
/// segment base64url without padding.
///
/// Parsing only splits and decodes; whether the signature holds is `SignatureVerifier`'s
/// question.
struct CompactJWS: Sendable {
    /// The protected header's fields that verification reads.
    struct Header: Sendable {
        /// `alg`; the App Store signs with `ES256`.
        var algorithm: String?
        /// `x5c`: DER certificates, leaf first (base64, not base64url, per RFC 7515 §4.1.6).
        var certificateChain: [[UInt8]]?
        /// `kid`; Xcode's self-signed JWS say `Apple_Xcode_Key`.
        var keyID: String?
    }

    var header: Header
    /// The decoded payload bytes (JSON).
    var payload: [UInt8]
    /// The decoded signature (for ES256: raw r‖s, 64 bytes).
    var signature: [UInt8]
    /// The ASCII bytes the signature covers: `header.payload` as written.
    var signingInput: [UInt8]

    /// Why a string is not a compact JWS.
    struct FormatError: Error, Equatable, Sendable {
        var reason: String
    }

    /// Splits and decodes `text`; surrounding whitespace is ignored.
    static func parse(_ text: some StringProtocol) throws(FormatError) -> CompactJWS {
        var bytes = Array(text.utf8)
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
        if start > 0 { bytes.removeFirst(start) }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw FormatError(reason: "not a compact JWS: \(segments.count) dot-separated segments, not 3")
        }
        guard let headerBytes = base64URLDecode(segments[0]) else {
            throw FormatError(reason: "JWS header is not base64url")
        }
        guard let payload = base64URLDecode(segments[1]) else {
            throw FormatError(reason: "JWS payload is not base64url")
        }
        guard let signature = base64URLDecode(segments[2]) else {
            throw FormatError(reason: "JWS signature is not base64url")
        }
        let header = try parseHeader(headerBytes)
        let signingInput = Array(bytes[..<(segments[0].count + 1 + segments[1].count)])
        return CompactJWS(header: header, payload: payload, signature: signature, signingInput: signingInput)
    }

    /// The payload as a JSON value.
    func payloadJSON() throws(FormatError) -> JSONValue {
        try Self.json(payload, what: "payload")
    }

    /// Whether `text` looks like a compact JWS at a glance (`eyJ` is base64url of `{"`).
    static func looksLikeJWS(_ text: some StringProtocol) -> Bool {
        text.utf8.starts(with: "eyJ".utf8) && text.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count == 2
    }

    private static func parseHeader(_ bytes: [UInt8]) throws(FormatError) -> Header {
        guard let members = try json(bytes, what: "header").members else {
            throw FormatError(reason: "JWS header is not a JSON object")
        }
        var header = Header()
        for member in members {
            switch (member.key, member.value) {
            case ("alg", .string(let value)): header.algorithm = value
            case ("kid", .string(let value)): header.keyID = value
            case ("x5c", .array(let values)):
                var chain: [[UInt8]] = []
                for element in values {
                    guard case .string(let text) = element.value,
                        let der = Base64.decode(text.utf8, alphabet: .standard)
                    else {
                        throw FormatError(reason: "JWS header x5c holds a value that is not base64 DER")
                    }
                    chain.append(der)
                }
                header.certificateChain = chain
            case ("alg", _), ("kid", _), ("x5c", _):
                throw FormatError(reason: "JWS header \(member.key) is a \(member.value.typeName)")
            default: continue
            }
        }
        return header
    }

    private static func json(_ bytes: [UInt8], what: String) throws(FormatError) -> JSONValue {
        let parsed = JSONParser.parseDocument(bytes, trailing: "unexpected text after the value")
        switch parsed {
        case .success(let value): return value
        case .failure(let error):
            if let named = error.namedEncodingProblem { throw FormatError(reason: "JWS \(what): \(named)") }
            throw FormatError(reason: "JWS \(what) is not JSON (\(error.line):\(error.column): \(error.message))")
        }
    }

    /// base64url (RFC 4648 §5) with or without padding; `nil` on any other byte.
    static func base64URLDecode(_ segment: some Collection<UInt8>) -> [UInt8]? {
        Base64.decode(segment, alphabet: .url)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
