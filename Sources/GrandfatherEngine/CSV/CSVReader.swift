import CLibCSV
import Foundation

/// Streams CSV through libcsv (SPEC §2, §8.2): RFC 4180 quoting, CRLF or LF, an optional
/// BOM, blank lines skipped, lenient quotes, values never trimmed.
///
/// A reader parses one byte range of a file, which starts at a record boundary (the file's
/// start, or a split point `CSVSplitter` proved to lie outside quotes), so several ranges
/// of one file can be parsed at once. libcsv hands fields to C callbacks that fill a
/// `CSVCollector`; once a chunk is parsed, its records go to the sink as `RawRow`s that
/// point into the collector's buffer.
public struct CSVReader {
    /// The header's field names.
    let header: [String]
    /// For each header position, the field index of the kind, or -1 for an unknown column.
    private let fieldForColumn: [Int]
    private let fieldCount: Int
    /// The byte between fields: a comma, or a semicolon (RevenueCat's older exports).
    let delimiter: UInt8

    /// Whether lines libcsv can read only one way are read by `PlainLineReader`; tests turn it
    /// off to compare with libcsv alone.
    public var readsPlainLines = true

    /// The delimiter of canonical CSV.
    public static let comma = UInt8(ascii: ",")

    /// Prepares to read a file whose columns a source names itself (a RevenueCat export's):
    /// a row's field `i` is the column named `fieldNames[i]`, wherever the header puts it.
    public init(header: [String], fieldNames: [String], delimiter: UInt8 = comma) {
        self.header = header
        self.fieldForColumn = header.map { fieldNames.firstIndex(of: $0) ?? -1 }
        self.fieldCount = fieldNames.count
        self.delimiter = delimiter
    }

    /// What reading a range found besides its rows.
    public struct RangeSummary {
        /// Physical line breaks in the range: the next range's lines start this much later.
        public var lineBreaks: Int
        /// Records (the header among them) `PlainLineReader` read rather than libcsv; tests
        /// check that the hand reader takes up the lines after each one it leaves.
        var readByHand = 0
    }

    /// Reads every record of `range` into `sink`. A range starting at the data start skips
    /// the header; lines are counted from 1 at the range's start (the caller offsets them).
    public func read<Sink: RowSink>(
        _ source: ByteSource, range: Range<Int>, isFirst: Bool, into sink: inout Sink, meter: ProgressMeter? = nil
    ) throws(EngineError) -> RangeSummary {
        // A record with more fields than the header is rejected whatever they hold: count them, keep none.
        let state = CSVReader.makeCollector(maximumFields: max(header.count, 1))
        defer { CSVReader.free(state) }
        let parser = UnsafeMutablePointer<csv_parser>.allocate(capacity: 1)
        parser.initialize(to: try CSVReader.makeParser())
        csv_set_delim(parser, delimiter)
        defer {
            // The collector's buffer goes back before libcsv frees its own.
            state.pointee.reclaim()
            csv_free(parser)
            parser.deallocate()
        }

        var row = RawRow(fieldCount: fieldCount)
        defer { row.deallocate() }
        var skipHeader = isFirst
        var offset = range.lowerBound
        var chunk = [UInt8](repeating: 0, count: ByteSource.chunkSize)
        let plain = PlainLineReader(delimiter: delimiter, fieldForColumn: fieldForColumn)
        var failure: EngineError?
        var readByHand = 0
        while offset < range.upperBound {
            let wanted = min(ByteSource.chunkSize, range.upperBound - offset)
            let count = try source.read(at: offset, count: wanted, into: &chunk)
            guard count > 0 else { break }
            var records = 0
            chunk.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var position = 0
                // How far past the line the plain reader left libcsv reads: nothing more while
                // the plain reader gets on, twice as far each time it reads no line at all.
                var libcsvRun = 0
                while position < count {
                    var end = count
                    if readsPlainLines, parser.pointee.pstate == 0, !state.pointee.recordInProgress {
                        let outcome = plain.read(
                            base, from: position, to: count, lines: &state.pointee.lineState, row: &row,
                            skipHeader: &skipHeader, into: &sink)
                        records += outcome.records
                        readByHand += outcome.records
                        libcsvRun = outcome.stop > position ? 0 : max(2 * libcsvRun, 256)
                        position = outcome.stop
                        guard position < count else { break }
                        end = Self.lineEnd(base, from: position + libcsvRun, to: count)
                    } else if readsPlainLines {
                        // A record libcsv began: a line the last chunk cut, read to its end. Inside
                        // quotes a line end is text, so libcsv reads on to the line of the next
                        // quote, the one that may close the field: a quoted field over many lines
                        // costs one call, not one a line, and the hand reader takes up the lines
                        // after it (reading to the chunk's end here left every later chunk to libcsv).
                        let from =
                            CSVReader.insideQuotes(parser.pointee) == true
                            ? Self.quote(base, from: position, to: count) : position
                        end = Self.lineEnd(base, from: from, to: count)
                    }
                    do throws(EngineError) {
                        try parse(
                            UnsafeRawBufferPointer(start: base + position, count: end - position), parser, state,
                            path: source.path)
                    } catch {
                        failure = error
                        return
                    }
                    records += state.pointee.records.count
                    deliver(state, row: &row, skipHeader: &skipHeader, into: &sink)
                    position = end
                }
            }
            if let failure { throw failure }
            offset += count
            meter?.advance(bytes: count, rows: records)
        }
        // A quote that never closes makes the rest of the file one rejected row (SPEC §8.2).
        if parser.pointee.pstate == 2, parser.pointee.quoted != 0 {
            deliver(state, row: &row, skipHeader: &skipHeader, into: &sink)
            sink.reject(
                line: state.pointee.pendingRecordLine, column: nil, field: nil,
                reason: "quoted field never closes; the rest of the file is one rejected row")
            return RangeSummary(lineBreaks: state.pointee.currentLine - 1, readByHand: readByHand)
        }
        csv_fini(parser, csvField, csvRecord, state)
        deliver(state, row: &row, skipHeader: &skipHeader, into: &sink)
        return RangeSummary(lineBreaks: state.pointee.currentLine - 1, readByHand: readByHand)
    }

    private func deliver<Sink: RowSink>(
        _ state: UnsafeMutablePointer<CSVCollector>, row: inout RawRow, skipHeader: inout Bool, into sink: inout Sink
    ) {
        let collector = state.pointee
        for index in 0..<collector.records.count {
            let record = collector.records[index]
            if skipHeader {
                skipHeader = false
                continue
            }
            guard record.fieldCount == header.count else {
                sink.reject(
                    line: record.line, column: nil, field: nil,
                    reason: "\(record.fieldCount) fields, header has \(header.count)")
                continue
            }
            row.reset(line: record.line, base: UnsafeRawPointer(collector.bytes.base))
            for column in 0..<record.fieldCount {
                let field = fieldForColumn[column]
                guard field >= 0 else { continue }
                let index = record.firstField + column
                let start = column == 0 ? record.firstByte : collector.fieldEnds[index - 1]
                row.set(field: field, column: column + 1, start: start, count: collector.fieldEnds[index] - start)
            }
            sink.accept(row)
        }
        state.pointee.compact()
    }

    /// Parses `bytes` with libcsv into the collector.
    private func parse(
        _ bytes: UnsafeRawBufferPointer, _ parser: UnsafeMutablePointer<csv_parser>,
        _ state: UnsafeMutablePointer<CSVCollector>, path: String
    ) throws(EngineError) {
        // libcsv calls its space function for nearly every byte; where its default
        // (trimming) cannot change a value, the bytes are parsed without the calls.
        let startsInQuotes = CSVReader.insideQuotes(parser.pointee)
        let startsAtFieldStart = CSVReader.atFieldStart(parser.pointee)
        let safe = TrimSafety.defaultIsSafe(
            bytes, startsInQuotes: startsInQuotes, startsAtFieldStart: startsAtFieldStart, delimiter: delimiter)
        csv_set_space_func(parser, safe ? nil : CSVReader.neverSpace)
        state.pointee.fieldsMayHoldBreaks = QuotedLineBreaks.mayOccur(
            bytes, startsInQuotes: startsInQuotes, startsAtFieldStart: startsAtFieldStart, delimiter: delimiter)
        state.pointee.lend(to: parser, forBytes: bytes.count)
        guard csv_parse(parser, bytes.baseAddress, bytes.count, csvField, csvRecord, state) == bytes.count else {
            throw .io(path: path, message: "CSV parser: \(String(cString: csv_strerror(csv_error(parser))))")
        }
    }

    /// The first quote at or after `start`, or `end` when there is none.
    private static func quote(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        guard start < end, let found = memchr(base + start, 0x22, end - start) else { return end }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The first byte after the first line end at or after `start`, or `end` when there is none.
    private static func lineEnd(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var position = start
        while position < end {
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            if byte == 0x0A || byte == 0x0D { return position }
        }
        return end
    }

    /// A libcsv parser set up as SPEC §8.2 reads: every line end reported (for line numbers),
    /// and values never trimmed (nothing counts as a space). The caller `csv_free`s it.
    private static func makeParser() throws(EngineError) -> csv_parser {
        var parser = csv_parser()
        guard csv_init(&parser, UInt8(CSV_REPALL_NL)) == 0 else { throw .internal("csv_init failed") }
        csv_set_space_func(&parser, neverSpace)
        csv_set_blk_size(&parser, 64 * 1024)
        return parser
    }

    /// Whether the parser is inside a quoted field; `nil` just after a quote there (an escape
    /// or a close, which the next byte decides). libcsv's states: 0 row not begun, 1 field not
    /// begun, 2 field begun, 3 a quote inside a quoted field.
    static func insideQuotes(_ parser: csv_parser) -> Bool? {
        switch parser.pstate {
        case 2: return parser.quoted != 0
        case 3: return nil
        default: return false
        }
    }

    /// Whether the parser's next byte begins a field.
    static func atFieldStart(_ parser: csv_parser) -> Bool {
        parser.pstate == 0 || parser.pstate == 1
    }

    /// Nothing is a space: values are never trimmed (SPEC §8.2).
    static let neverSpace: @convention(c) (UInt8) -> Int32 = { _ in 0 }

    /// A collector behind a raw pointer, the context libcsv's callbacks get.
    private static func makeCollector(maximumFields: Int) -> UnsafeMutablePointer<CSVCollector> {
        let state = UnsafeMutablePointer<CSVCollector>.allocate(capacity: 1)
        state.initialize(to: CSVCollector(maximumFields: maximumFields))
        return state
    }

    /// A header naming more columns than this fails the run (exit 2) instead of holding a
    /// name for each of millions of fields.
    static let maximumHeaderColumns = 1 << 16

    private static func free(_ state: UnsafeMutablePointer<CSVCollector>) {
        state.pointee.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Reads the header of a CSV file: its first record, or `nil` when there is none.
    public static func readHeader(
        _ source: ByteSource, dataStart: Int, delimiter: UInt8 = comma
    ) throws(EngineError) -> [String]? {
        struct HeaderSink: RowSink {
            mutating func accept(_ row: RawRow) {}
            mutating func reject(line: Int, column: Int?, field: String?, reason: String) {}
        }
        let state = makeCollector(maximumFields: maximumHeaderColumns + 1)
        defer { free(state) }
        var parser = try makeParser()
        defer { csv_free(&parser) }
        csv_set_delim(&parser, delimiter)
        var chunk = [UInt8](repeating: 0, count: ByteSource.chunkSize)
        var offset = dataStart
        while state.pointee.records.count == 0 {
            let count = try source.read(at: offset, count: ByteSource.chunkSize, into: &chunk)
            guard count > 0 else {
                if !(parser.pstate == 2 && parser.quoted != 0) { csv_fini(&parser, csvField, csvRecord, state) }
                break
            }
            offset += count
            _ = chunk.withUnsafeBytes { raw in csv_parse(&parser, raw.baseAddress, count, csvField, csvRecord, state) }
            guard offset - dataStart <= 64 << 20 else {
                throw .input(file: source.path, line: 1, message: "header longer than 64 MiB")
            }
        }
        let collector = state.pointee
        guard collector.records.count > 0 else { return nil }
        let record = collector.records[0]
        guard record.fieldCount <= maximumHeaderColumns else {
            throw .input(file: source.path, line: 1, message: "header has more than \(maximumHeaderColumns) columns")
        }
        return (0..<record.fieldCount).map { column in
            String(decoding: collector.field(column, of: record), as: UTF8.self)
        }
    }
}

// libcsv's callbacks: C entry points for functions the compiler inlines into them. Written as
// closures, each entry point called the closure's body: two calls per field.
private let csvField: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = collectField
private let csvRecord: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = collectRecordEnd

@inline(__always)
private func collectField(_ data: UnsafeMutableRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?) {
    context?.assumingMemoryBound(to: CSVCollector.self).pointee.field(UnsafeRawPointer(data), length)
}

@inline(__always)
private func collectRecordEnd(_ terminator: Int32, _ context: UnsafeMutableRawPointer?) {
    context?.assumingMemoryBound(to: CSVCollector.self).pointee.endRecord(terminator)
}
