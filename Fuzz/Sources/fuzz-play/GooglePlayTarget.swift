import Foundation
import FuzzSupport
@_spi(Fuzzing) import GrandfatherCore

/// The process: libFuzzer's driver over this target's input function.
@main enum GooglePlayTarget {
    static func main() { FuzzerDriver.run(fuzzGooglePlay) }
}

/// Stored responses the notifications and voided purchases are audited after, so that their
/// tokens can match: written once per process.
let responses: String = {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("grandfather-fuzz-\(getpid())-responses.jsonl").path
    let lines = [
        #"{"purchaseToken":"tok-a","startTime":"2025-01-05T10:00:00Z","subscriptionState":"SUBSCRIPTION_STATE_IN_GRACE_PERIOD","externalAccountIdentifiers":{"obfuscatedExternalAccountId":"alice"},"lineItems":[{"productId":"pro.monthly","expiryTime":"2025-06-20T10:00:00Z","autoRenewingPlan":{},"latestSuccessfulOrderId":"GPA.1-1..4"}]}"#,
        #"{"purchaseToken":"tok-b","startTime":"2025-04-05T10:00:00Z","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","linkedPurchaseToken":"tok-a","lineItems":[{"productId":"trip.pass","expiryTime":"2025-07-05T10:00:00Z","prepaidPlan":{}}]}"#,
    ]
    FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    return path
}()

/// Google Play's subscription files (stored `subscriptionsv2` responses, real-time developer
/// notifications, voided purchases), each audited as a run audits it. Besides crashes it
/// checks the accounting (read = accepted + rejected, one rejection per rejected row, the
/// superseded and duplicates among the accepted), that every rejection's line lies within the
/// input, and that a second run gives the same outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGooglePlay(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    IngestHarness.replaceInput(with: bytes)
    let policy = IngestHarness.policy
    guard
        let outcome = Fuzzing.auditGooglePlay(
            path: IngestHarness.path, responses: responses, policy: policy, asOf: IngestHarness.asOf)
    else { return -1 }
    let report = outcome.report
    guard report.rowsRead == report.rowsAccepted + report.rowsRejected,
        report.rowsRejected == outcome.rejections.count,
        report.superseded + report.exactDuplicates <= report.rowsAccepted
    else { fatalError("accounting does not add up: \(report), \(outcome.rejections)") }
    let lines = PhysicalLines.count(bytes)
    for rejection in outcome.rejections where !(1...lines).contains(rejection.line) {
        fatalError("a rejection at line \(rejection.line) of \(lines): \(rejection)")
    }
    let again = Fuzzing.auditGooglePlay(
        path: IngestHarness.path, responses: responses, policy: policy, asOf: IngestHarness.asOf)
    if again != outcome { fatalError("a second run differs:\n\(outcome)\n\(String(describing: again))") }
    return 0
}
