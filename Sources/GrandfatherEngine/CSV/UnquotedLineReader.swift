import Foundation

/// Reads delimited text that has no quoting at all: a line is a record, the delimiter splits
/// it into fields, and a quote is a character like any other.
///
/// App Store Connect's sales reports are tab-separated and never quoted, so a title that
/// begins with `"` is a title; read with CSV's quoting it opened a field that ran to the end
/// of the file, and every row after it was lost in one rejection. Lines end at LF, CR or CRLF
/// and are counted as `CSVCollector` counts libcsv's: every CR, and every LF not just after a
/// CR. Blank lines are skipped. Memory is one chunk and the line it cut: a line longer than
/// `maximumLineBytes` is rejected without being kept.
public struct UnquotedLineReader {
    /// The header's field names.
    let header: [String]
    let delimiter: UInt8
    /// For each header position, the field index of the kind, or -1 for a column not read.
    private let fieldForColumn: [Int]
    private let fieldCount: Int

    /// A line longer than this is rejected unread.
    static let maximumLineBytes = 1 << 24

    public init(header: [String], fieldNames: [String], delimiter: UInt8) {
        self.header = header
        self.delimiter = delimiter
        self.fieldForColumn = header.map { fieldNames.firstIndex(of: $0) ?? -1 }
        self.fieldCount = fieldNames.count
    }

    /// Reads every record of `source` after its header into `sink`.
    public func read<Sink: RowSink>(_ source: ByteSource, into sink: inout Sink, meter: ProgressMeter? = nil)
        throws(EngineError)
    {
        var row = RawRow(fieldCount: fieldCount)
        defer { row.deallocate() }
        var chunk = [UInt8](repeating: 0, count: ByteSource.chunkSize)
        // The line the chunk before cut, and where that line began.
        var pending: [UInt8] = []
        var pendingLine = 1
        var overlong = false
        var line = 1
        var afterCR = false
        var isHeader = true
        var offset = source.dataStart
        while true {
            let count = try source.read(at: offset, count: ByteSource.chunkSize, into: &chunk)
            var records = 0
            var start = 0
            for position in 0..<count {
                let byte = chunk[position]
                guard byte == 0x0A || byte == 0x0D else { continue }
                let continuesCRLF = byte == 0x0A && afterCR && position == start && pending.isEmpty
                afterCR = byte == 0x0D
                if continuesCRLF {
                    start = position + 1
                    continue
                }
                let lineOfRecord = pending.isEmpty && !overlong ? line : pendingLine
                line += 1
                if overlong {
                    sink.reject(
                        line: lineOfRecord, column: nil, field: nil,
                        reason: "line is longer than \(Self.maximumLineBytes) bytes")
                    records += 1
                } else if pending.isEmpty {
                    records += deliver(chunk[start..<position], line: lineOfRecord, &row, &isHeader, &sink)
                } else {
                    pending += chunk[start..<position]
                    records += deliver(pending[...], line: lineOfRecord, &row, &isHeader, &sink)
                }
                pending.removeAll(keepingCapacity: true)
                overlong = false
                start = position + 1
            }
            if count == 0 {
                if overlong {
                    sink.reject(
                        line: pendingLine, column: nil, field: nil,
                        reason: "line is longer than \(Self.maximumLineBytes) bytes")
                } else if !pending.isEmpty {
                    _ = deliver(pending[...], line: pendingLine, &row, &isHeader, &sink)
                }
                return
            }
            if start < count {
                // The chunk ends inside a line: its last byte is no CR.
                afterCR = false
                if pending.isEmpty && !overlong { pendingLine = line }
                if pending.count + (count - start) > Self.maximumLineBytes {
                    overlong = true
                    pending.removeAll()
                } else if !overlong {
                    pending += chunk[start..<count]
                }
            }
            offset += count
            meter?.advance(bytes: count, rows: records)
        }
    }

    /// Splits one line into the row and hands it on; a blank line is skipped, the header passed.
    private func deliver<Sink: RowSink>(
        _ bytes: ArraySlice<UInt8>, line: Int, _ row: inout RawRow, _ isHeader: inout Bool, _ sink: inout Sink
    ) -> Int {
        guard !bytes.isEmpty else { return 0 }
        if isHeader {
            isHeader = false
            return 0
        }
        var fields = 1
        for byte in bytes where byte == delimiter { fields += 1 }
        guard fields == header.count else {
            sink.reject(line: line, column: nil, field: nil, reason: "\(fields) fields, header has \(header.count)")
            return 1
        }
        bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress
            row.reset(line: line, base: base)
            var column = 0
            var fieldStart = 0
            for position in 0...raw.count {
                guard position == raw.count || raw[position] == delimiter else { continue }
                let field = fieldForColumn[column]
                if field >= 0 {
                    row.set(
                        field: field, column: column + 1, start: fieldStart,
                        count: min(position - fieldStart, RawRow.maximumFieldBytes + 1))
                }
                column += 1
                fieldStart = position + 1
            }
            sink.accept(row)
        }
        return 1
    }
}
