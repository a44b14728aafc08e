/// How a run treats the signatures of its App Store inputs (`--trusted-root`, `--verify-at`,
/// `--trust-decoded`, `--no-verify`).
public struct SignatureChecks: Sendable, Equatable, Codable {
    /// When a certificate chain must have been valid.
    public enum VerifyAt: String, Sendable, CaseIterable, Codable {
        /// At each payload's own signing date (Apple's offline rule: old JWS still verify).
        case signedDate = "signed-date"
        /// At the present.
        case now
    }

    /// `false` with `--no-verify`: signed content is read without checking.
    public var verify = true
    public var verifyAt = VerifyAt.signedDate
    /// `--trust-decoded`: payloads that carry no signature (decoded JSON, verifyReceipt
    /// responses) are read.
    public var trustDecoded = false
    /// `--trusted-root` files: roots trusted beside the pinned Apple Root CA - G3.
    public var trustedRoots: [String] = []
    /// `--accept-self-signed` (or the policy's `apple.environment` `Xcode`/`LocalTesting`):
    /// a JWS that fails verification but says it is Xcode or LocalTesting data is read as
    /// unverified sandbox data instead of being rejected.
    public var acceptSelfSigned = false

    public init() {}

    /// Whether the run reads anything it did not verify, which every report then says.
    public var weakensTrust: Bool { !verify || trustDecoded || acceptSelfSigned }

    /// One line for reports and `runs`.
    public var description: String {
        var parts: [String] = []
        if verify {
            let roots =
                trustedRoots.isEmpty
                ? "Apple Root CA - G3"
                : "Apple Root CA - G3 and --trusted-root " + trustedRoots.joined(separator: ", ")
            parts.append(
                "signatures verified against \(roots) at \(verifyAt == .now ? "the present" : "each payload's signedDate")"
            )
        } else {
            parts.append("signatures NOT verified (--no-verify)")
        }
        parts.append(
            trustDecoded
                ? "unsigned payloads trusted (--trust-decoded)" : "unsigned payloads refused")
        if verify {
            parts.append(
                acceptSelfSigned
                    ? "self-signed Xcode/LocalTesting data read as unverified sandbox data (--accept-self-signed)"
                    : "self-signed Xcode/LocalTesting data refused")
        }
        return parts.joined(separator: "; ")
    }
}
