import Foundation

/// Chooses where to cut a file into ranges that can be parsed at once (one parser per
/// range, SPEC-identical to one pass): every cut lies just after a line feed that ends a
/// record. For JSON Lines any line feed does; for CSV only one outside quotes, as libcsv
/// reads them, which a scan of the quotes from the start of the data proves.
public enum RecordSplitter {
    /// Files smaller than this are read as one range.
    public static let minimumPartSize = 4 << 20

    /// Ranges covering `source` from its data start, about `parts` of them, each smaller
    /// than the one before: the cores take ranges in order, so the last ones, which may run
    /// with a core already idle, are the shortest (guided scheduling). The range `i` of `n`
    /// gets a share proportional to `n - i`, the last about a quarter of an even share.
    static func ranges(
        for source: ByteSource, layout: RecordLayout, parts requested: Int, minimumPartSize: Int = minimumPartSize
    ) throws(EngineError) -> [Range<Int>] {
        let start = source.dataStart
        guard
            let targets = Self.targets(
                for: source, layout: layout, parts: requested, minimumPartSize: minimumPartSize)
        else { return [start..<source.size] }
        let cuts: [Int]
        switch layout {
        case .csv: cuts = try csvCuts(source, targets: targets)
        case .lines: cuts = try lineCuts(source, targets: targets)
        case .document: cuts = []
        }
        var bounds = [start]
        appendCuts(cuts, to: &bounds, end: source.size)
        bounds.append(source.size)
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    /// Appends the cuts that start a range of their own: past the last bound and before `end`
    /// (a cut that repeats the last, or reaches the end, is none). `HashingSplit` keeps its
    /// bounds by this rule too, as it finds them.
    static func appendCuts(_ cuts: [Int], to bounds: inout [Int], end: Int) {
        for cut in cuts where cut > bounds[bounds.count - 1] && cut < end { bounds.append(cut) }
    }

    /// Where the ranges of `ranges(for:layout:parts:minimumPartSize:)` would end if records
    /// could be cut anywhere; `nil` when the file is read as one range.
    static func targets(
        for source: ByteSource, layout: RecordLayout, parts requested: Int, minimumPartSize: Int = minimumPartSize
    ) -> [Int]? {
        let start = source.dataStart
        let length = source.size - start
        var parts = max(1, requested)
        // The shortest range is `length / (parts (parts + 1) / 2)`: no shorter than the minimum.
        while parts > 1, length / (parts * (parts + 1) / 2) < max(minimumPartSize, 1) { parts -= 1 }
        guard parts > 1, layout != .document else { return nil }
        return targets(start: start, length: length, parts: parts)
    }

    /// Where the ranges would end if records could be cut anywhere: the shares of
    /// `ranges(for:layout:parts:minimumPartSize:)` laid out from `start`.
    static func targets(start: Int, length: Int, parts: Int) -> [Int] {
        let shares = parts * (parts + 1) / 2
        var taken = 0
        return (0..<max(parts - 1, 0)).map { index in
            taken += parts - index
            return start + Int(Double(length) * Double(taken) / Double(shares))
        }
    }

    /// The offset after the first line feed at or after each target. Once a target has none
    /// after it, no later one has either: the file is not scanned to its end again.
    private static func lineCuts(_ source: ByteSource, targets: [Int]) throws(EngineError) -> [Int] {
        var cuts: [Int] = []
        var chunk: [UInt8] = []
        for target in targets {
            var offset = target
            var found: Int?
            while found == nil, case let count = try source.read(at: offset, count: 1 << 16, into: &chunk), count > 0 {
                found = chunk.withUnsafeBytes { raw -> Int? in
                    guard let base = raw.baseAddress, let feed = memchr(base, 0x0A, count) else { return nil }
                    return offset + base.distance(to: UnsafeRawPointer(feed)) + 1
                }
                offset += count
            }
            guard let found else { break }
            cuts.append(found)
        }
        return cuts
    }

    /// The offset after the first line feed outside quotes at or after each target.
    private static func csvCuts(_ source: ByteSource, targets: [Int]) throws(EngineError) -> [Int] {
        var finder = CSVCutFinder(targets: targets)
        var cuts: [Int] = []
        var chunk = [UInt8](repeating: 0, count: ByteSource.chunkSize)
        var chunkStart = source.dataStart
        while !finder.isDone,
            case let count = try source.read(at: chunkStart, count: ByteSource.chunkSize, into: &chunk), count > 0
        {
            chunk.withUnsafeBytes { raw in
                cuts += finder.scan(UnsafeRawBufferPointer(rebasing: raw[0..<count]), at: chunkStart)
            }
            chunkStart += count
        }
        return cuts
    }
}

/// Finds, in a file's bytes given in order from its data start, the first line feed at or
/// after each target: the cuts of a JSON Lines file, found on the way as `CSVCutFinder`'s.
struct LineCutFinder {
    private var pending: ArraySlice<Int>

    init(targets: [Int]) {
        pending = targets[...]
    }

    var isDone: Bool { pending.isEmpty }

    /// Scans the next bytes, which start at file offset `chunkStart`; returns the cuts found.
    mutating func scan(_ raw: UnsafeRawBufferPointer, at chunkStart: Int) -> [Int] {
        guard let base = raw.baseAddress else { return [] }
        var cuts: [Int] = []
        while let target = pending.first, target < chunkStart + raw.count {
            let from = max(target - chunkStart, 0)
            // None here: the target's line feed is in a later chunk.
            guard let feed = memchr(base + from, 0x0A, raw.count - from) else { break }
            cuts.append(chunkStart + base.distance(to: feed) + 1)
            pending.removeFirst()
        }
        return cuts
    }
}

/// Finds, in a file's bytes given in order from its data start, the first line feed outside
/// quotes at or after each target: the cuts of `RecordSplitter`. Incremental, so that a pass
/// over the file that does something else with the bytes (hashing them) can find the cuts
/// on the way.
struct CSVCutFinder {
    /// libcsv's quote states, as far as they decide where records end.
    private enum QuoteState {
        case unquoted
        case quoted
        /// A quote inside a quoted field: the next byte decides (SPEC §8.2, lenient quotes).
        case quoteInQuoted
    }

    private var pending: ArraySlice<Int>
    private var state = QuoteState.unquoted
    private var previous: UInt8 = 0x0A  // the data start counts as a line start

    init(targets: [Int]) {
        pending = targets[...]
    }

    /// Whether every target has its cut.
    var isDone: Bool { pending.isEmpty }

    /// Scans the next bytes, which start at file offset `chunkStart`; returns the cuts found.
    mutating func scan(_ raw: UnsafeRawBufferPointer, at chunkStart: Int) -> [Int] {
        guard let base = raw.baseAddress else { return [] }
        let count = raw.count
        var cuts: [Int] = []
        var index = 0
        while index < count, !pending.isEmpty {
            switch state {
            case .unquoted:
                let quote = memchr(base + index, 0x22, count - index).map { base.distance(to: $0) } ?? count
                // Targets before the next quote: the first line feed after each is a cut.
                while let target = pending.first, target < chunkStart + quote {
                    let from = max(index, target - chunkStart)
                    guard let feed = memchr(base + from, 0x0A, quote - from) else { break }
                    cuts.append(chunkStart + base.distance(to: feed) + 1)
                    pending.removeFirst()
                }
                guard quote < count else {
                    index = count
                    continue
                }
                let before = quote > 0 ? raw[quote - 1] : previous
                // A quote opens a quoted field only where a field starts.
                if before == 0x2C || before == 0x0A || before == 0x0D { state = .quoted }
                index = quote + 1
            case .quoted:
                guard let quote = memchr(base + index, 0x22, count - index) else {
                    index = count
                    continue
                }
                index = base.distance(to: quote) + 1
                state = .quoteInQuoted
            case .quoteInQuoted:
                let byte = raw[index]
                if byte == 0x2C || byte == 0x0A || byte == 0x0D {
                    state = .unquoted  // the field ended; the unquoted scan reads this byte
                } else {
                    state = .quoted  // a doubled quote, or a stray one that keeps the field open
                    index += 1
                }
            }
        }
        if count > 0 { previous = raw[count - 1] }
        return cuts
    }
}
