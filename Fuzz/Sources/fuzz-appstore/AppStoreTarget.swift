import FuzzSupport
@_spi(Fuzzing) import GrandfatherCore

/// The process: libFuzzer's driver over this target's input function.
@main enum AppStoreTarget {
    static func main() { FuzzerDriver.run(fuzzAppStore) }
}

/// The reasons only `SignatureVerifier` gives (a nested JWS's reason is prefixed with its
/// field), which no read with signatures unchecked may give.
private let verifierReasons = [
    "no alg in the JWS header", "alg is ", "no x5c certificate chain", "x5c holds ", "no signedDate to verify at",
    "x5c[", "the intermediate certificate (x5c[1])", "unknown root:", "certificate expired at",
    "certificate not yet valid at", "intermediate certificate lacks Apple marker OID",
    "leaf certificate lacks Apple marker OID", "leaf certificate key is not P-256", "bad signature",
    "certificate chain fails RFC 5280", "the chain to the trusted root is not",
]

/// The fields whose JWS a notification nests, which prefix a nested JWS's reason.
private let nestedFields = ["signedTransactionInfo: ", "signedRenewalInfo: ", "signedAppTransactionInfo: "]

/// App Store files: `AppStoreRecognizer`, then `AppStoreFileReader` (JSON and JWS lines,
/// `CompactJWS`, payload mapping, receipts), read with signatures unchecked and through
/// `SignatureVerifier`. Besides crashes it checks that every row's line is within the input,
/// that reading again gives the same rows (the verifier's second read comes from its chain
/// cache), that no unchecked read gives a reason only the verifier gives, and that each read
/// trusts rows only as its checker can.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppStore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let file = Array(bytes)
    let checkers = Fuzzing.AppStoreCheckers()
    guard let outcome = Fuzzing.readAppStore(file, with: checkers) else { return -1 }
    let lines = PhysicalLines.count(bytes)
    for (name, read) in [("unchecked", outcome.unchecked), ("verified", outcome.verified)] {
        for row in read.rows where !(1...lines).contains(row.line) {
            fatalError("\(name) read of \(outcome.shape): a row at line \(row.line) of \(lines): \(row)")
        }
    }
    for row in outcome.unchecked.rows {
        if let reason = row.rejection, isVerifierReason(reason) {
            fatalError("unchecked read of \(outcome.shape) gives a verifier's reason: \(reason)")
        }
        if let trust = row.trust, trust != "unchecked", trust != "unsigned" {
            fatalError("unchecked read of \(outcome.shape) trusts a row as \(trust): \(row)")
        }
    }
    for row in outcome.verified.rows where row.trust == "unchecked" {
        fatalError("verified read of \(outcome.shape) has an unchecked row: \(row)")
    }
    let again = Fuzzing.readAppStore(file, with: checkers)
    if again != outcome {
        fatalError("reading \(outcome.shape) again differs:\nfirst: \(outcome)\nagain: \(String(describing: again))")
    }
    return 0
}

/// Whether `reason` (or, for a nested JWS, the part after its field) is one the verifier gives.
private func isVerifierReason(_ reason: String) -> Bool {
    var own = Substring(reason)
    if let field = nestedFields.first(where: { own.hasPrefix($0) }) { own = own.dropFirst(field.count) }
    return verifierReasons.contains { own.hasPrefix($0) }
}
