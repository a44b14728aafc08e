import CByteScan

/// Reads by hand the CSV lines that libcsv can read only one way, and leaves every other line
/// to libcsv.
///
/// libcsv walks each byte through its state machine and calls back once per field: at
/// `long-history` its parse was over a third of a run's cycles, the hottest code there is. Most
/// lines of a real export are plain, and a plain line needs none of that machinery. A line is
/// plain when every field is either
/// - text without a quote, or
/// - a quoted field that opens where the field starts, closes just before a delimiter or line
///   end, holds no line break, and, in a column the row keeps, no doubled quote (whose value
///   would need unescaping);
///
/// and the line's end is in the bytes given. libcsv, never trimming (SPEC §8.2), reads such a
/// line as this reader does: fields split at delimiters, the quotes around a quoted field
/// dropped. Any other line (a quote inside unquoted text, text after a closing quote, a quoted
/// line break, a line cut by the chunk's end) stops the reader at that line's first byte, with
/// nothing of it delivered, and `CSVReader` gives it to libcsv from there. Lines are counted as
/// `CSVCollector` counts libcsv's line ends: every CR, and every LF not just after a CR.
///
/// `CSVDifferentialTests` and the csv fuzz target compare this reader with libcsv alone.
struct PlainLineReader {
    /// Where the lines stand between records.
    struct LineState: Equatable {
        /// The line the next byte is on.
        var line: Int
        /// Whether the last line end was a CR, so that an LF right after it ends no line.
        var afterCR: Bool
    }

    /// What one call read.
    struct Outcome {
        /// Where the reader stopped: the end it was given, or the first byte of a line it left.
        var stop: Int
        /// Records delivered (accepted or rejected), the header included.
        var records: Int
    }

    let delimiter: UInt8
    /// For each header position, the field index of the kind, or -1 for an unknown column.
    let fieldForColumn: [Int]

    /// Reads the plain lines of `base[start..<end]`; `start` begins a line.
    func read<Sink: RowSink>(
        _ base: UnsafeRawPointer, from start: Int, to end: Int, lines: inout LineState, row: inout RawRow,
        skipHeader: inout Bool, into sink: inout Sink
    ) -> Outcome {
        fieldForColumn.withUnsafeBufferPointer { columns in
            var boundaries = Boundaries()
            var position = start
            var records = 0
            while position < end {
                let first = base.load(fromByteOffset: position, as: UInt8.self)
                if first == lf || first == cr {
                    // A blank line, or the LF of a CRLF.
                    if first == cr || !lines.afterCR { lines.line += 1 }
                    lines.afterCR = first == cr
                    position += 1
                    continue
                }
                guard
                    let (next, fieldCount, terminator) = split(
                        base, line: position, end: end, columns: columns, row: &row, boundaries: &boundaries)
                else { break }
                row.line = lines.line
                records += 1
                if skipHeader {
                    skipHeader = false
                } else if fieldCount != columns.count {
                    sink.reject(
                        line: lines.line, column: nil, field: nil,
                        reason: "\(fieldCount) fields, header has \(columns.count)")
                } else {
                    sink.accept(row)
                }
                lines.line += 1
                lines.afterCR = terminator == cr
                position = next
            }
            return Outcome(stop: position, records: records)
        }
    }

    /// Splits the line at `start` into `row` (based at `base`); `nil` when it is not plain.
    ///
    /// - Returns: the first byte after the line's end, how many fields it has, and the end.
    @inline(__always)
    private func split(
        _ base: UnsafeRawPointer, line start: Int, end: Int, columns: UnsafeBufferPointer<Int>, row: inout RawRow,
        boundaries: inout Boundaries
    ) -> (next: Int, fieldCount: Int, terminator: UInt8)? {
        func byte(_ position: Int) -> UInt8 { base.load(fromByteOffset: position, as: UInt8.self) }
        row.reset(line: 0, base: base)
        var column = 0
        var position = start
        while true {
            let valueStart: Int
            let valueEnd: Int
            if position < end, byte(position) == quote {
                var scan = position + 1
                var doubled = false
                while true {
                    scan = nextBoundary(base, from: scan, to: end, in: &boundaries)
                    guard scan + 1 < end else { return nil }
                    let value = byte(scan)
                    if value == delimiter {
                        // A delimiter inside quotes is text.
                        scan += 1
                        continue
                    }
                    guard value == quote else { return nil }
                    guard byte(scan + 1) == quote else { break }
                    doubled = true
                    scan += 2
                }
                // `scan` is the closing quote; a delimiter or line end must follow it.
                let after = byte(scan + 1)
                guard after == delimiter || after == lf || after == cr else { return nil }
                if doubled, column < columns.count, columns[column] >= 0 { return nil }
                valueStart = position + 1
                valueEnd = scan
                position = scan + 1
            } else {
                let scan = nextBoundary(base, from: position, to: end, in: &boundaries)
                guard scan < end, byte(scan) != quote else { return nil }
                valueStart = position
                valueEnd = scan
                position = scan
            }
            if column < columns.count, case let field = columns[column], field >= 0 {
                // As `CSVCollector` keeps it: one byte past the limit shows a field is too long.
                row.set(
                    field: field, column: column + 1, start: valueStart,
                    count: min(valueEnd - valueStart, RawRow.maximumFieldBytes + 1))
            }
            column += 1
            let separator = byte(position)
            position += 1
            if separator != delimiter { return (position, column, separator) }
        }
    }

    /// The field boundaries of one 64-byte stretch of the bytes being read, found at once
    /// (`grandfather_csv_boundaries`) and used by every field that ends in it.
    private struct Boundaries {
        var blockStart = Int.min / 2
        var mask: UInt64 = 0
    }

    /// The first quote, CR, LF or delimiter at or after `start`, or `end`.
    @inline(__always)
    private func nextBoundary(
        _ base: UnsafeRawPointer, from start: Int, to end: Int, in boundaries: inout Boundaries
    ) -> Int {
        var position = start
        while position < end {
            let offset = position - boundaries.blockStart
            if offset < 0 || offset >= 64 {
                guard position + 64 <= end else { return scanBytes(base, from: position, to: end) }
                boundaries.blockStart = position
                boundaries.mask = grandfather_csv_boundaries(
                    base.assumingMemoryBound(to: UInt8.self) + position, delimiter)
                continue
            }
            let ahead = boundaries.mask &>> UInt64(offset)
            if ahead != 0 { return position + ahead.trailingZeroBitCount }
            position = boundaries.blockStart + 64
        }
        return end
    }

    /// `nextBoundary` a byte at a time, for the last bytes, where no whole block is left.
    private func scanBytes(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var position = start
        while position < end {
            let value = base.load(fromByteOffset: position, as: UInt8.self)
            if value == quote || value == cr || value == lf || value == delimiter { return position }
            position += 1
        }
        return end
    }

    private let quote: UInt8 = 0x22
    private let cr: UInt8 = 0x0D
    private let lf: UInt8 = 0x0A
}
