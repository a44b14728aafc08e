import CLibCSV

/// Streams a CSV file through libcsv (SPEC §2, §8.2): RFC 4180 quoting, CRLF or LF,
/// an optional BOM, blank lines skipped, lenient quotes, values never trimmed.
///
/// libcsv hands over fields through C callbacks; `CSVCollector` gathers the records of
/// each chunk, and the reader turns them into `RawRow`s once the chunk is parsed, so the
/// generic sink is called from Swift, not from C.
struct CSVReader {
    /// The header's field names.
    let header: [String]
    /// For each header position, the field index of the kind, or -1 for an unknown column.
    private let fieldForColumn: [Int]
    private let fieldCount: Int

    /// Prepares to read a file whose header was already recognised as `kind`.
    init(header: [String], kind: RecordKind) {
        self.header = header
        let names = kind.fieldNames
        self.fieldForColumn = header.map { names.firstIndex(of: $0) ?? -1 }
        self.fieldCount = names.count
    }

    /// Reads every record after the header into `sink`.
    func read<Sink: RowSink>(_ file: InputFile, into sink: inout Sink) throws(GrandfatherError) {
        let collector = CSVCollector()
        var parser = csv_parser()
        guard csv_init(&parser, UInt8(CSV_REPALL_NL)) == 0 else { throw .internal("csv_init failed") }
        defer { csv_free(&parser) }
        // Values are not trimmed (SPEC §8.2): nothing counts as a space to libcsv.
        csv_set_space_func(&parser, { _ in 0 })
        csv_set_blk_size(&parser, 64 * 1024)
        let context = Unmanaged.passUnretained(collector).toOpaque()

        var chunk: [UInt8] = []
        var row = RawRow(fieldCount: fieldCount)
        var firstChunk = true
        var sawHeader = false
        while case let count = try file.read(into: &chunk), count > 0 {
            let parsed = chunk.withUnsafeBytes { raw -> Int in
                var start = 0
                if firstChunk, count >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF { start = 3 }
                let region = UnsafeRawBufferPointer(rebasing: raw[start..<count])
                return start + csv_parse(&parser, region.baseAddress, region.count, csvField, csvRecord, context)
            }
            firstChunk = false
            guard parsed == count else {
                throw .io(path: file.path, message: "CSV parser: \(String(cString: csv_strerror(csv_error(&parser))))")
            }
            deliver(collector, row: &row, sawHeader: &sawHeader, into: &sink)
        }
        // A quote that never closes makes the rest of the file one rejected row (SPEC §8.2).
        if parser.pstate == 2, parser.quoted != 0 {
            deliver(collector, row: &row, sawHeader: &sawHeader, into: &sink)
            let line = collector.fieldsInRecord > 0 ? collector.recordStartLine : collector.currentLine
            sink.reject(
                line: line, column: nil, field: nil,
                reason: "quoted field never closes; the rest of the file is one rejected row")
            return
        }
        csv_fini(&parser, csvField, csvRecord, context)
        deliver(collector, row: &row, sawHeader: &sawHeader, into: &sink)
    }

    private func deliver<Sink: RowSink>(
        _ collector: CSVCollector, row: inout RawRow, sawHeader: inout Bool, into sink: inout Sink
    ) {
        collector.bytes.withUnsafeBytes { bytes in
            for record in collector.records {
                if !sawHeader {
                    sawHeader = true
                    continue
                }
                guard record.fieldCount == header.count else {
                    sink.reject(
                        line: record.line, column: nil, field: nil,
                        reason: "\(record.fieldCount) fields, header has \(header.count)")
                    continue
                }
                row.reset(line: record.line)
                for column in 0..<record.fieldCount {
                    let field = fieldForColumn[column]
                    guard field >= 0 else { continue }
                    let start = column == 0 ? record.firstByte : collector.fieldEnds[record.firstField + column - 1]
                    let end = collector.fieldEnds[record.firstField + column]
                    row.set(
                        field: field, column: column + 1, bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                }
                sink.accept(row)
            }
        }
        collector.compact()
    }

    /// Reads the header of a CSV file: its first record.
    static func readHeader(_ file: InputFile) throws(GrandfatherError) -> [String]? {
        let collector = CSVCollector()
        var parser = csv_parser()
        guard csv_init(&parser, UInt8(CSV_REPALL_NL)) == 0 else { throw .internal("csv_init failed") }
        defer { csv_free(&parser) }
        csv_set_space_func(&parser, { _ in 0 })
        let context = Unmanaged.passUnretained(collector).toOpaque()
        var chunk: [UInt8] = []
        var firstChunk = true
        var total = 0
        while collector.records.isEmpty {
            let count = try file.read(into: &chunk)
            guard count > 0 else {
                if !(parser.pstate == 2 && parser.quoted != 0) { csv_fini(&parser, csvField, csvRecord, context) }
                break
            }
            total += count
            chunk.withUnsafeBytes { raw in
                var start = 0
                if firstChunk, count >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF { start = 3 }
                let region = UnsafeRawBufferPointer(rebasing: raw[start..<count])
                _ = csv_parse(&parser, region.baseAddress, region.count, csvField, csvRecord, context)
            }
            firstChunk = false
            guard total <= 64 << 20 else {
                throw .input(file: file.path, line: 1, message: "header longer than 64 MiB")
            }
        }
        guard let record = collector.records.first else { return nil }
        return (0..<record.fieldCount).map { column in
            let start = column == 0 ? record.firstByte : collector.fieldEnds[record.firstField + column - 1]
            let end = collector.fieldEnds[record.firstField + column]
            return String(decoding: collector.bytes[start..<end], as: UTF8.self)
        }
    }
}

/// Gathers libcsv's callbacks: field bytes back to back, record boundaries, and the
/// physical line each record starts on (libcsv reports none, so lines are counted from
/// the terminators it reports and the line breaks inside quoted fields).
final class CSVCollector {
    struct Record {
        var firstField: Int
        var firstByte: Int
        var fieldCount: Int
        var line: Int
    }

    var bytes: [UInt8] = []
    /// End offset in `bytes` of every field collected.
    var fieldEnds: [Int] = []
    var records: [Record] = []
    /// The line the next byte is on.
    var currentLine = 1
    var recordStartLine = 1
    var fieldsInRecord = 0
    private var recordFirstField = 0
    private var recordFirstByte = 0
    private var lastTerminatorWasCR = false

    func field(_ data: UnsafeRawPointer?, _ length: Int) {
        if fieldsInRecord == 0 {
            recordStartLine = currentLine
            recordFirstField = fieldEnds.count
            recordFirstByte = bytes.count
        }
        if let data, length > 0 {
            let value = UnsafeRawBufferPointer(start: data, count: length)
            bytes.append(contentsOf: value)
            var previous: UInt8 = 0
            for byte in value {
                if byte == 0x0D || (byte == 0x0A && previous != 0x0D) { currentLine += 1 }
                previous = byte
            }
        }
        fieldEnds.append(bytes.count)
        fieldsInRecord += 1
        lastTerminatorWasCR = false
    }

    func endRecord(_ terminator: Int32) {
        if fieldsInRecord == 0 {
            // A blank line, or the LF of a CRLF whose CR ended the previous record.
            if terminator == 0x0A, lastTerminatorWasCR {
                lastTerminatorWasCR = false
                return
            }
            if terminator == 0x0A || terminator == 0x0D { currentLine += 1 }
            lastTerminatorWasCR = terminator == 0x0D
            return
        }
        records.append(
            Record(
                firstField: recordFirstField, firstByte: recordFirstByte, fieldCount: fieldsInRecord,
                line: recordStartLine))
        fieldsInRecord = 0
        if terminator == 0x0A || terminator == 0x0D { currentLine += 1 }
        lastTerminatorWasCR = terminator == 0x0D
    }

    /// Drops delivered records, keeping the fields of a record still in progress.
    func compact() {
        records.removeAll(keepingCapacity: true)
        if fieldsInRecord == 0 {
            bytes.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
            return
        }
        let keptFields = Array(fieldEnds[recordFirstField...]).map { $0 - recordFirstByte }
        bytes.removeSubrange(0..<recordFirstByte)
        fieldEnds = keptFields
        recordFirstField = 0
        recordFirstByte = 0
    }
}

private let csvField: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
    data, length, context in
    guard let context else { return }
    Unmanaged<CSVCollector>.fromOpaque(context).takeUnretainedValue().field(UnsafeRawPointer(data), length)
}

private let csvRecord: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { terminator, context in
    guard let context else { return }
    Unmanaged<CSVCollector>.fromOpaque(context).takeUnretainedValue().endRecord(terminator)
}
