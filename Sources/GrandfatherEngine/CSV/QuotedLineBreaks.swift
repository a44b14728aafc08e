import Foundation

/// Decides, per chunk, whether a field libcsv delivers while parsing it may hold a line
/// break, which only a quoted field can (an unquoted line break ends the record). Where none
/// can, `CSVCollector` skips looking for breaks in each field, a tenth of its time.
///
/// The scan jumps from quote to quote with `memchr`, following libcsv's quoting as
/// `TrimSafety` does: a quote opens a field only where a field starts, and closes it when a
/// delimiter or line end follows. Every quoted stretch is searched for CR and LF. Anything the
/// scan cannot follow with certainty (a chunk that starts inside quotes, whose field began
/// earlier; a stray quote inside quotes; a quote at the chunk's end) counts as "may".
enum QuotedLineBreaks {
    static func mayOccur(
        _ chunk: UnsafeRawBufferPointer, startsInQuotes: Bool?, startsAtFieldStart: Bool, delimiter: UInt8 = comma
    ) -> Bool {
        guard startsInQuotes == false else { return true }
        guard let base = chunk.baseAddress, chunk.count > 0 else { return false }
        let count = chunk.count
        func next(_ byte: UInt8, from position: Int, to end: Int) -> Int {
            guard position < end, let found = memchr(base + position, Int32(byte), end - position) else { return end }
            return UnsafeRawPointer(found) - base
        }
        func byte(_ position: Int) -> UInt8 { base.load(fromByteOffset: position, as: UInt8.self) }
        func endsField(_ value: UInt8) -> Bool { value == delimiter || value == cr || value == lf }

        var inQuotes = false
        var position = 0
        while true {
            let quote = next(quoteMark, from: position, to: count)
            guard inQuotes else {
                guard quote < count else { return false }
                // Elsewhere a quote outside quotes is text, as libcsv reads it.
                if quote == 0 ? startsAtFieldStart : endsField(byte(quote - 1)) { inQuotes = true }
                position = quote + 1
                continue
            }
            // From `position` to the quote is quoted text.
            if next(lf, from: position, to: quote) < quote || next(cr, from: position, to: quote) < quote {
                return true
            }
            guard quote + 1 < count else { return true }
            let after = byte(quote + 1)
            if after == quoteMark {
                // An escaped quote, `""`: still inside.
                position = quote + 2
                continue
            }
            guard endsField(after) else { return true }
            inQuotes = false
            position = quote + 1
        }
    }

    static let comma: UInt8 = 0x2C
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A
    private static let quoteMark: UInt8 = 0x22
}
