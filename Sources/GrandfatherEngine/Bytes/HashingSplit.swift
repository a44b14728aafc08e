import Crypto
import Foundation

/// One sequential read of an input file that both hashes it (the SHA-256 of
/// `ByteSource.sha256()`) and finds where its ranges are cut (the cuts of
/// `RecordSplitter.ranges`), publishing each range as soon as both its ends are known.
///
/// Finding the cuts of a CSV file means following its quotes from the start, and the hash
/// reads every byte too: done apart, the file was read twice, and the cut scan (a second at
/// 5.9 GB) ran before any parser could start, while the other core waited. Here `run` is the
/// first job of the parallel loop whose other jobs parse the ranges: they start as soon as
/// the pass has found the first cut, and the pass outruns them, since hashing a byte costs
/// a fraction of parsing it. A job of the loop, not a thread of its own, so that no more
/// threads run than cores (a parser descheduled while it holds a shard's lock stalls the
/// others). Only for a file that is not compressed, whose bytes on disk are the bytes parsed.
final class HashingSplit: @unchecked Sendable {
    private let condition = NSCondition()
    /// The data start, then each cut as found, then the file's end once every cut is known.
    private var bounds: [Int]
    private var boundsComplete = false
    private var digest: String?
    private var failure: EngineError?
    /// The most ranges the file can be cut into: one more than the targets.
    let maximumRanges: Int

    private let source: ByteSource
    private let layout: RecordLayout
    private let targets: [Int]

    /// A pass over `source` (laid out as CSV or lines) that cuts after the first record end
    /// at or after each of `targets`; `run` reads it.
    init(source: ByteSource, layout: RecordLayout, targets: [Int]) {
        bounds = [source.dataStart]
        maximumRanges = targets.count + 1
        self.source = source
        self.layout = layout
        self.targets = targets
    }

    /// The range of job `index` (from 0), once both its ends are known; `nil` when the file
    /// has fewer ranges. Waits for `run`, which must be running or bound to run on another
    /// thread.
    func range(_ index: Int) throws(EngineError) -> Range<Int>? {
        condition.lock()
        defer { condition.unlock() }
        while bounds.count < index + 2, !boundsComplete { condition.wait() }
        if let failure { throw failure }
        guard index + 1 < bounds.count else { return nil }
        return bounds[index]..<bounds[index + 1]
    }

    /// The file's SHA-256 (hex), once the pass has read the whole file.
    func wait() throws(EngineError) -> String {
        condition.lock()
        defer { condition.unlock() }
        while digest == nil, failure == nil { condition.wait() }
        if let failure { throw failure }
        return digest ?? ""
    }

    /// Reads the file once, publishing the ranges and then the digest (or the failure).
    func run() {
        var hasher = SHA256()
        var csv = CSVCutFinder(targets: layout == .csv ? targets : [])
        var lines = LineCutFinder(targets: layout == .csv ? [] : targets)
        var chunk = [UInt8](repeating: 0, count: ByteSource.chunkSize)
        var offset = 0
        do throws(EngineError) {
            while case let count = try source.read(at: offset, count: ByteSource.chunkSize, into: &chunk), count > 0 {
                let cuts = chunk.withUnsafeBytes { raw -> [Int] in
                    let read = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                    hasher.update(bufferPointer: read)
                    // Cuts are looked for from the data start (after a byte-order mark).
                    let skip = max(source.dataStart - offset, 0)
                    guard skip < count, !(csv.isDone && lines.isDone) else { return [] }
                    let data = UnsafeRawBufferPointer(rebasing: read[skip...])
                    return csv.isDone
                        ? lines.scan(data, at: offset + skip) : csv.scan(data, at: offset + skip)
                }
                offset += count
                publish(cuts, complete: csv.isDone && lines.isDone, end: source.size)
            }
            publish([], complete: true, end: source.size)
            finish(digest: hasher.finalize().map { String(format: "%02x", $0) }.joined())
        } catch {
            fail(error)
        }
    }

    private func publish(_ cuts: [Int], complete: Bool, end: Int) {
        guard !cuts.isEmpty || (complete && !boundsComplete) else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !boundsComplete else { return }
        RecordSplitter.appendCuts(cuts, to: &bounds, end: end)
        if complete {
            bounds.append(end)
            boundsComplete = true
        }
        condition.broadcast()
    }

    private func finish(digest: String) {
        condition.lock()
        self.digest = digest
        condition.broadcast()
        condition.unlock()
    }

    private func fail(_ error: EngineError) {
        condition.lock()
        failure = error
        boundsComplete = true
        condition.broadcast()
        condition.unlock()
    }
}

/// How a file is read on every core: job 0 hashes it (cutting it too, by a `HashingSplit`,
/// when it is cut into ranges and not compressed), and jobs 1… each read one range, waiting
/// for the pass to find its ends. A compressed file, whose digest is of other bytes than those
/// parsed, is cut first and hashed by job 0 beside its ranges; a file not cut is one range.
public struct RangedRead: Sendable {
    let source: ByteSource
    private let pass: HashingSplit?
    private let ranges: [Range<Int>]

    /// The plan for `source`, laid out as `layout`, cut into ranges when `cut`.
    public init(
        _ source: ByteSource, layout: RecordLayout, cut: Bool, parts: Int, minimumPartSize: Int
    ) throws(EngineError) {
        self.source = source
        let targets =
            cut
            ? RecordSplitter.targets(for: source, layout: layout, parts: parts, minimumPartSize: minimumPartSize) : nil
        pass = targets.flatMap {
            source.readsDecodedCopy ? nil : HashingSplit(source: source, layout: layout, targets: $0)
        }
        if pass == nil, cut {
            ranges = try RecordSplitter.ranges(
                for: source, layout: layout, parts: parts, minimumPartSize: minimumPartSize)
        } else {
            ranges = [source.dataStart..<source.size]
        }
    }

    /// The jobs of the parallel loop: job 0, then one a range at most.
    public var jobs: Int { 1 + (pass?.maximumRanges ?? ranges.count) }

    /// Job 0's work: the file's SHA-256 (hex), the ranges published on the way.
    public func digest() throws(EngineError) -> String {
        guard let pass else { return try source.sha256() }
        pass.run()
        return try pass.wait()
    }

    /// The range job `job` (from 1) reads, once its ends are known; `nil` when the file has
    /// fewer ranges.
    public func range(job: Int) throws(EngineError) -> Range<Int>? {
        guard let pass else { return ranges[job - 1] }
        return try pass.range(job - 1)
    }
}
