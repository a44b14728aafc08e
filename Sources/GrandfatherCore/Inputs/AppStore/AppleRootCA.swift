import Crypto
import Foundation

/// Apple Root CA - G3, the root every App Store JWS chain ends in, pinned.
///
/// The DER is embedded rather than read from disk so that a run cannot be pointed at another
/// root by a stray file; more roots are trusted only through `--trusted-root`.
/// Source: <https://www.apple.com/certificateauthority/AppleRootCA-G3.cer>, identical to the
/// `x5c[2]` of every production JWS.
enum AppleRootCA {
    /// The certificate's name, as refusals word it.
    static let name = "Apple Root CA - G3"

    /// SHA-256 of `der`, uppercase hex, as Apple publishes it.
    static let sha256Fingerprint = "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"

    /// The certificate, DER, in base64 (RFC 4648 §4), 583 bytes once decoded.
    static let base64DER = """
        MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwSQXBwbGUgUm9vdCBDQSAtIEczMSYwJAYD
        VQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN
        MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBSb290IENBIC0gRzMxJjAkBgNVBAsMHUFw
        cGxlIENlcnRpZmljYXRpb24gQXV0aG9yaXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
        AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtfTjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA
        /VhYDKX1DyxNB0cTddqXl5dvMVztK517IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr
        MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gAMGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZL
        uN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM
        6BgD56KyKA==
        """

    /// The certificate's DER bytes; empty only if `base64DER` were damaged, which a test rules out.
    static let der: [UInt8] = Data(base64Encoded: base64DER, options: .ignoreUnknownCharacters).map(Array.init) ?? []

    /// SHA-256 of `bytes` in uppercase hex, the form of `sha256Fingerprint`.
    static func fingerprint(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + digits : digits
        }.joined()
    }
}
