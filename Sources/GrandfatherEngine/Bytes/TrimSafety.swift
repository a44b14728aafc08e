import Foundation

/// Decides, per chunk, whether libcsv's default space handling (which trims spaces and tabs
/// around unquoted fields) could change a value, so that the chunk must be parsed with a
/// space function that says "never a space" (SPEC §8.2: values are never trimmed).
///
/// That function costs a call for nearly every byte of every unquoted field, about a tenth of
/// parsing; most chunks hold blanks only inside quoted text (`"bundle, family"`) or between
/// words, where trimming changes nothing. Trimming can only touch a blank that sits next to a
/// field's edge outside quotes: after a delimiter, line end or closing quote, or before a
/// delimiter, line end or opening quote. So a chunk is safe when no blank outside quotes
/// touches the delimiter (a comma, or a semicolon), CR, LF, quote or the chunk's own ends. The scan jumps from quote to blank
/// with `memchr`; anything it cannot place with certainty counts as unsafe.
enum TrimSafety {
    /// Whether the chunk may be parsed with libcsv's default space handling.
    ///
    /// - Parameters:
    ///   - startsInQuotes: the parser is inside a quoted field at the chunk's first byte;
    ///     `nil` when its state cannot tell (just after a quote inside a quoted field).
    ///   - startsAtFieldStart: the chunk's first byte begins a field (a quote there opens one).
    static func defaultIsSafe(
        _ chunk: UnsafeRawBufferPointer, startsInQuotes: Bool?, startsAtFieldStart: Bool, delimiter: UInt8 = comma
    )
        -> Bool
    {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return true }
        guard var inQuotes = startsInQuotes else { return false }
        let count = chunk.count
        func next(_ byte: UInt8, from position: Int) -> Int {
            guard position < count, let found = memchr(base + position, Int32(byte), count - position) else {
                return count
            }
            return UnsafeRawPointer(found) - base
        }
        func byte(_ position: Int) -> UInt8 { base.load(fromByteOffset: position, as: UInt8.self) }
        func endsField(_ value: UInt8) -> Bool { value == delimiter || value == cr || value == lf }

        var quote = next(quoteMark, from: 0)
        var space = next(0x20, from: 0)
        var tab = next(0x09, from: 0)
        while true {
            let blank = min(space, tab)
            if quote == count && blank == count { return true }
            if quote < blank {
                if inQuotes {
                    let after = quote + 1 < count ? byte(quote + 1) : nil
                    if after == quoteMark {
                        // An escaped quote, `""`: still inside.
                        quote = next(quoteMark, from: quote + 2)
                        continue
                    }
                    // Anything but a clean close (or a close the next chunk must tell) is
                    // lenient reading this scan does not follow.
                    guard let after, endsField(after) else { return false }
                    inQuotes = false
                } else if quote == 0 ? startsAtFieldStart : endsField(byte(quote - 1)) {
                    inQuotes = true
                }
                // Elsewhere a quote outside quotes is text, as libcsv reads it.
                quote = next(quoteMark, from: quote + 1)
                continue
            }
            if !inQuotes {
                guard blank > 0, blank + 1 < count else { return false }
                let before = byte(blank - 1)
                let after = byte(blank + 1)
                if endsField(before) || before == quoteMark || endsField(after) || after == quoteMark { return false }
            }
            if blank == space { space = next(0x20, from: blank + 1) } else { tab = next(0x09, from: blank + 1) }
        }
    }

    static let comma: UInt8 = 0x2C
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A
    private static let quoteMark: UInt8 = 0x22
}
