import Foundation
import FuzzSupport
@_spi(Fuzzing) import GrandfatherCore

/// The process: libFuzzer's driver over this target's input function.
@main enum RevenueCatTarget {
    static func main() { FuzzerDriver.run(fuzzRevenueCat) }
}

/// RevenueCat's files, each audited alone as a run audits it: a Scheduled Data Export
/// (mapping, deliveries, the spill), a customer list, subscriber responses (purchases as
/// deliveries) and webhook events (merged ids). Besides crashes it checks the accounting
/// (read = accepted + rejected, the superseded among the accepted), that every rejection's
/// line lies within the input, that no merged id is still a customer of its own, and that a
/// second run gives the same outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRevenueCat(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    IngestHarness.replaceInput(with: bytes)
    let policy = IngestHarness.policy
    guard let outcome = Fuzzing.auditRevenueCat(path: IngestHarness.path, policy: policy, asOf: IngestHarness.asOf)
    else { return -1 }
    let report = outcome.report
    guard report.rowsRead == report.rowsAccepted + report.rowsRejected, report.superseded <= report.rowsAccepted,
        report.rowsRejected == outcome.rejections.count
    else { fatalError("accounting does not add up: \(report), \(outcome.rejections.count) rejections") }
    let lines = PhysicalLines.count(bytes)
    for rejection in outcome.rejections where !(1...lines).contains(rejection.line) {
        fatalError("a rejection at line \(rejection.line) of \(lines): \(rejection)")
    }
    let customers = Set(outcome.verdicts.map { String($0.prefix { $0 != " " }) })
    for merged in outcome.merged {
        let id = String(merged.prefix { $0 != ">" })
        if customers.contains(id) { fatalError("merged id \(id) is still a customer: \(outcome.verdicts)") }
    }
    let again = Fuzzing.auditRevenueCat(path: IngestHarness.path, policy: policy, asOf: IngestHarness.asOf)
    if again != outcome { fatalError("a second run differs:\n\(outcome)\n\(String(describing: again))") }
    return 0
}
