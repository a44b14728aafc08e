import Dispatch
import Foundation
import GrandfatherEngine

/// Reads one input file into the shared ledger: large CSV and JSON Lines files as several
/// ranges parsed at once, with the file's SHA-256 computed alongside (by the pass that also
/// finds the ranges, `HashingSplit`, when the file is not compressed); everything else as
/// one range.
enum FileIngest {
    /// Reads `description` and returns its accounting and rejections (in line order).
    static func read(
        _ description: InputDescription, header: [String]?, normalizer: RecordNormalizer, ledger: ShardedLedger,
        options: IngestOptions = IngestOptions(), meter: ProgressMeter? = nil, log: RecordLog? = nil
    ) throws(GrandfatherError) -> (InputReport, [Rejection], claims: [ClaimedOrderRules.Claim]) {
        let source = try InputFile.open(description.path)
        let plan = try Ranges.plan(
            source, layout: description.format.layout, cut: description.kind == .transactions, parts: options.parts,
            minimumPartSize: options.minimumPartSize)
        let jobs = plan.jobs - 1

        let slots = ResultSlots<RangeResult?, GrandfatherError>(count: jobs + 1)
        // Job 0 hashes the file (and cuts it, `RangedRead`); jobs 1… parse one range each. Job
        // 0 is always taken first, so a parser waiting for its range always has the pass
        // running on another thread.
        DispatchQueue.concurrentPerform(iterations: jobs + 1) { job in
            if job == 0 {
                slots.store(
                    0,
                    Result { () throws(GrandfatherError) in RangeResult(digest: try Ranges.digest(of: plan)) })
                return
            }
            slots.store(
                job,
                Result { () throws(GrandfatherError) in
                    guard let range = try Ranges.range(of: plan, job: job) else { return nil }
                    var sink = IngestSink(
                        file: description.path, kind: description.kind, customerSource: .customersFile,
                        normalizer: normalizer, ledger: ledger, log: log)
                    sink.logOrder = range.lowerBound
                    let lineBreaks: Int
                    switch description.format {
                    case .csv:
                        lineBreaks = try Records.read(
                            source, with: CSVReader(header: header ?? [], kind: description.kind), range: range,
                            isFirst: job == 1, into: &sink, meter: meter
                        ).lineBreaks
                    case .jsonLines:
                        lineBreaks = try Records.readLines(
                            source, with: JSONReader(kind: description.kind), range: range, into: &sink, meter: meter
                        ).lineBreaks
                    case .jsonArray:
                        try Records.readArray(source, with: JSONReader(kind: description.kind), into: &sink)
                        meter?.advance(bytes: range.count, rows: sink.rowsRead)
                        lineBreaks = 0
                    default:
                        throw .internal(
                            "\(description.path): a \(description.format) file reached the canonical readers")
                    }
                    sink.flush()
                    return RangeResult(sink: sink, lineBreaks: lineBreaks)
                })
        }
        var report = InputReport(
            path: description.path, format: description.format, kind: description.kind,
            sizeBytes: Int64(source.storedSize), sha256: "", rowsRead: 0, rowsAccepted: 0, rowsRejected: 0,
            exactDuplicates: 0, sandboxRows: 0)
        var rejections: [Rejection] = []
        var claims: [ClaimedOrderRules.Claim] = []
        var lineOffset = 0
        // Job 0's result first: the pass's failure, which also stopped the parsers waiting on it.
        for job in 0...jobs {
            guard let result = try slots.take(job) else { continue }
            if job == 0 {
                report.sha256 = result.digest
                continue
            }
            report.rowsRead += result.rowsRead
            report.rowsAccepted += result.rowsAccepted
            report.exactDuplicates += result.exactDuplicates
            report.sandboxRows += result.sandboxRows
            claims += result.claims
            for var rejection in result.rejections {
                rejection.line += lineOffset
                rejections.append(rejection)
            }
            lineOffset += result.lineBreaks
        }
        report.rowsRejected = rejections.count
        return (report, rejections, claims)
    }
}

/// What one job produced.
private struct RangeResult: Sendable {
    var digest = ""
    var rowsRead = 0
    var rowsAccepted = 0
    var exactDuplicates = 0
    var sandboxRows = 0
    var rejections: [Rejection] = []
    var claims: [ClaimedOrderRules.Claim] = []
    var lineBreaks = 0

    init(digest: String) {
        self.digest = digest
    }

    init(sink: IngestSink, lineBreaks: Int) {
        rowsRead = sink.rowsRead
        rowsAccepted = sink.rowsAccepted
        exactDuplicates = sink.exactDuplicates
        sandboxRows = sink.sandboxRows
        rejections = sink.rejections
        claims = sink.claims
        self.lineBreaks = lineBreaks
    }
}
