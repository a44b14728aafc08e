import Dispatch
import Foundation

/// Reads one input file into the shared ledger: large CSV and JSON Lines files as several
/// ranges parsed at once, with the file's SHA-256 computed alongside; everything else as
/// one range.
enum FileIngest {
    /// Reads `description` and returns its accounting and rejections (in line order).
    static func read(
        _ description: InputDescription, header: [String]?, normalizer: RecordNormalizer, ledger: ShardedLedger,
        options: IngestOptions = IngestOptions(), meter: ProgressMeter? = nil, log: RecordLog? = nil
    ) throws(GrandfatherError) -> (InputReport, [Rejection]) {
        let source = try ByteSource(path: description.path)
        let ranges =
            description.kind == .transactions
            ? try RecordSplitter.ranges(
                for: source, format: description.format, parts: options.parts,
                minimumPartSize: options.minimumPartSize)
            : [source.dataStart..<source.size]

        let slots = ResultSlots<RangeResult>(count: ranges.count + 1)
        // Job 0 hashes the file; jobs 1… parse one range each.
        DispatchQueue.concurrentPerform(iterations: ranges.count + 1) { job in
            if job == 0 {
                slots.store(0, Result { () throws(GrandfatherError) in RangeResult(digest: try source.sha256()) })
                return
            }
            let range = ranges[job - 1]
            slots.store(
                job,
                Result { () throws(GrandfatherError) in
                    var sink = IngestSink(
                        file: description.path, kind: description.kind, customerSource: .customersFile,
                        normalizer: normalizer, ledger: ledger, log: log)
                    sink.logOrder = range.lowerBound
                    let lineBreaks: Int
                    switch description.format {
                    case .csv:
                        lineBreaks = try CSVReader(header: header ?? [], kind: description.kind)
                            .read(source, range: range, isFirst: job == 1, into: &sink, meter: meter).lineBreaks
                    case .jsonLines:
                        lineBreaks = try JSONReader(kind: description.kind)
                            .readLines(source, range: range, into: &sink, meter: meter)
                    case .jsonArray:
                        try JSONReader(kind: description.kind).readArray(source, into: &sink)
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
        var lineOffset = 0
        for job in 0...ranges.count {
            let result = try slots.take(job)
            if job == 0 {
                report.sha256 = result.digest
                continue
            }
            report.rowsRead += result.rowsRead
            report.rowsAccepted += result.rowsAccepted
            report.exactDuplicates += result.exactDuplicates
            report.sandboxRows += result.sandboxRows
            for var rejection in result.rejections {
                rejection.line += lineOffset
                rejections.append(rejection)
            }
            lineOffset += result.lineBreaks
        }
        report.rowsRejected = rejections.count
        return (report, rejections)
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
        self.lineBreaks = lineBreaks
    }
}
