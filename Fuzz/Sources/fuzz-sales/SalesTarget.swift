import Foundation
import FuzzSupport
@_spi(Fuzzing) import GrandfatherCore

/// The process: libFuzzer's driver over this target's input function.
@main enum SalesTarget {
    static func main() { FuzzerDriver.run(fuzzSales) }
}

/// The stores' sales reports (App Store Connect's Summary Sales Report, Google Play's sales and
/// earnings reports), each audited alone as a run audits it. Besides crashes it checks the accounting
/// (read = accepted + rejected, and every accepted row either counted as copies or counted
/// as a row the count cannot use), that every rejection's line lies within the input, that
/// no cell counts a negative number of copies, and that a second run gives the same outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSales(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    IngestHarness.replaceInput(with: bytes)
    let policy = IngestHarness.policy
    guard let outcome = Fuzzing.auditSales(path: IngestHarness.path, policy: policy, asOf: IngestHarness.asOf)
    else { return -1 }
    let report = outcome.report
    guard report.rowsRead == report.rowsAccepted + report.rowsRejected,
        report.rowsRejected == outcome.rejections.count,
        report.rowsAccepted == outcome.countedRows + outcome.notCountedRows
    else { fatalError("accounting does not add up: \(report), \(outcome)") }
    let lines = PhysicalLines.count(bytes)
    for rejection in outcome.rejections where !(1...lines).contains(rejection.line) {
        fatalError("a rejection at line \(rejection.line) of \(lines): \(rejection)")
    }
    for cell in outcome.cells where cell.split(separator: " ").suffix(3).contains(where: { $0.hasPrefix("-") }) {
        fatalError("a cell counts negative copies: \(cell)")
    }
    let again = Fuzzing.auditSales(path: IngestHarness.path, policy: policy, asOf: IngestHarness.asOf)
    if again != outcome { fatalError("a second run differs:\n\(outcome)\n\(String(describing: again))") }
    return 0
}
