import CByteScan

/// Reads by hand the JSON Lines lines that hold one flat object, and leaves every other line
/// to `JSONReader`'s scanner.
///
/// The scanner walks every byte through `JSONParser`: a call per token, an 8-byte step per
/// string, a `memcmp` per key and a copy per value into its scratch buffer. At 1M customers
/// that made the JSON Lines form of `default` 1.66x the CSV's time, where the files differ by
/// little more than their keys. Almost every line of a real export is flat, and a flat line
/// needs none of that. A line is flat when it is one object, and
/// - spaces at most stand between its tokens, and spaces, tabs or a CR after it;
/// - its keys and string values hold no backslash and no control byte (nothing to decode);
/// - every value is a string, a number, `true`, `false` or `null` (nothing nested);
/// - no key of the kind comes twice.
///
/// The scanner reads such a line as this reader does: a string's bytes between its quotes, a
/// number's and a literal's text as written, `null` and `""` as absent, unknown keys skipped.
/// Here the row points into the line itself, so nothing is copied. Any other line (escapes,
/// nested values, tabs between tokens, a duplicate key, a syntax error, a blank line) returns
/// `false` with nothing delivered, and the scanner reads it and finds what is wrong.
///
/// `JSONDifferentialTests` and the json fuzz target compare this reader with the scanner alone.
struct FlatObjectReader {
    /// Bytes readable past a line's end: every string is found 64 bytes at a time, so the
    /// buffer a line lies in must hold this many bytes after any place before the line's end.
    static let padding = 64

    /// Each known name in one 32-byte slot of zero-padded words, compared a word at a time.
    private let nameWords: [UInt64]
    private let nameCounts: [Int]
    private let fieldCount: Int
    private static let wordsPerName = 4

    /// A reader for a kind's fields; `nil` when a name does not fit its slot or the kind has
    /// more fields than a row's seen-mask holds (the scanner then reads every line).
    init?(fieldNames: [[UInt8]]) {
        guard fieldNames.count <= 64, fieldNames.allSatisfy({ $0.count <= 8 * Self.wordsPerName }) else {
            return nil
        }
        var words = [UInt64](repeating: 0, count: fieldNames.count * Self.wordsPerName)
        for (field, name) in fieldNames.enumerated() {
            for (offset, byte) in name.enumerated() {
                words[field * Self.wordsPerName + offset / 8] |= UInt64(byte) << (8 * UInt64(offset % 8))
            }
        }
        nameWords = words
        nameCounts = fieldNames.map(\.count)
        fieldCount = fieldNames.count
    }

    /// What a reader keeps from line to line.
    struct State {
        var row: RawRow
        /// The field of each key of the last line, by its place (-1: unknown): lines of one
        /// export name their keys in one order, so the field found there is tried first.
        let keyOrder: UnsafeMutablePointer<Int>
        static let orderedKeys = 64

        init(fieldCount: Int) {
            row = RawRow(fieldCount: fieldCount)
            keyOrder = .allocate(capacity: Self.orderedKeys)
            keyOrder.initialize(repeating: -1, count: Self.orderedKeys)
        }

        func deallocate() {
            row.deallocate()
            keyOrder.deallocate()
        }
    }

    /// Reads the line `base[start..<end]` (its LF excluded) into `state.row`, based at `base`.
    ///
    /// - Returns: `false`, with the row's fields undefined, when the line is not flat.
    func read(_ base: UnsafeRawPointer, from start: Int, to end: Int, line: Int, state: inout State) -> Bool {
        nameWords.withUnsafeBufferPointer { names in
            nameCounts.withUnsafeBufferPointer { counts in
                split(base, from: start, to: end, line: line, names: names, counts: counts, state: &state)
            }
        }
    }

    @inline(__always)
    private func split(
        _ base: UnsafeRawPointer, from start: Int, to end: Int, line: Int, names: UnsafeBufferPointer<UInt64>,
        counts: UnsafeBufferPointer<Int>, state: inout State
    ) -> Bool {
        func byte(_ position: Int) -> UInt8 { base.load(fromByteOffset: position, as: UInt8.self) }
        func skipSpaces(_ position: inout Int) {
            while position < end, byte(position) == space { position += 1 }
        }
        state.row.reset(line: line, base: base)
        var position = start
        skipSpaces(&position)
        guard position < end, byte(position) == openBrace else { return false }
        position += 1
        var seen: UInt64 = 0
        var place = 0
        var stops = Stops()
        while true {
            skipSpaces(&position)
            guard position < end, byte(position) == quote,
                let keyEnd = stringEnd(base, from: position + 1, to: end, stops: &stops)
            else { return false }
            let keyStart = position + 1
            let guess = place < State.orderedKeys ? state.keyOrder[place] : -1
            let field = fieldIndex(
                base + keyStart, count: keyEnd - keyStart, guess: guess, names: names, counts: counts)
            if place < State.orderedKeys { state.keyOrder[place] = field }
            place += 1
            position = keyEnd + 1
            skipSpaces(&position)
            guard position < end, byte(position) == colon else { return false }
            position += 1
            skipSpaces(&position)
            guard position < end else { return false }
            var valueStart = position
            let valueEnd: Int
            var isBoolean = false
            switch byte(position) {
            case quote:
                guard let closing = stringEnd(base, from: position + 1, to: end, stops: &stops) else { return false }
                valueStart = position + 1
                valueEnd = closing
                position = closing + 1
            case minus, zero...nine:
                guard let numberEnd = numberEnd(base, from: position, to: end) else { return false }
                valueEnd = numberEnd
                position = numberEnd
            case lowerT:
                guard end - position >= 4, load32(base, position) == trueWord else { return false }
                valueEnd = position + 4
                position += 4
                isBoolean = true
            case lowerF:
                guard end - position >= 5, load32(base, position) == falsWord, byte(position + 4) == lowerE else {
                    return false
                }
                valueEnd = position + 5
                position += 5
                isBoolean = true
            case lowerN:
                guard end - position >= 4, load32(base, position) == nullWord else { return false }
                // null: the field stays absent.
                valueEnd = valueStart
                position += 4
            default:
                return false
            }
            if field >= 0 {
                let bit: UInt64 = 1 << UInt64(field)
                // A duplicate is the scanner's to reject, with its wording.
                guard seen & bit == 0 else { return false }
                seen |= bit
                // As the scanner keeps it: one byte past the limit shows a field is too long.
                if isBoolean {
                    state.row.setBoolean(field: field)
                } else {
                    state.row.set(
                        field: field, column: 0, start: valueStart,
                        count: min(valueEnd - valueStart, RawRow.maximumFieldBytes + 1))
                }
            }
            skipSpaces(&position)
            guard position < end else { return false }
            let separator = byte(position)
            position += 1
            if separator == comma { continue }
            guard separator == closeBrace else { return false }
            while position < end {
                let trailing = byte(position)
                guard trailing == space || trailing == tab || trailing == cr else { return false }
                position += 1
            }
            return true
        }
    }

    /// The string stops of one 64-byte stretch of the line, found at once and used by every
    /// string that ends in it.
    private struct Stops {
        var blockStart = Int.min / 2
        var mask: UInt64 = 0
    }

    /// The closing quote of a string whose bytes start at `start`; `nil` when a backslash or a
    /// control byte comes first, or the line ends first.
    @inline(__always)
    private func stringEnd(_ base: UnsafeRawPointer, from start: Int, to end: Int, stops: inout Stops) -> Int? {
        var position = start
        while position < end {
            let offset = position - stops.blockStart
            if offset < 0 || offset >= 64 {
                stops.blockStart = position
                stops.mask = grandfather_json_string_stops(base.assumingMemoryBound(to: UInt8.self) + position)
                continue
            }
            let ahead = stops.mask &>> UInt64(offset)
            if ahead != 0 {
                let stop = position + ahead.trailingZeroBitCount
                guard stop < end, base.load(fromByteOffset: stop, as: UInt8.self) == quote else { return nil }
                return stop
            }
            position = stops.blockStart + 64
        }
        return nil
    }

    /// The end of the JSON number at `start` (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// as `JSONParser.scanNumber` reads it; `nil` when it is malformed.
    @inline(__always)
    private func numberEnd(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        func isDigit(_ position: Int) -> Bool {
            position < end && base.load(fromByteOffset: position, as: UInt8.self) &- zero <= 9
        }
        func byte(_ position: Int) -> UInt8? {
            position < end ? base.load(fromByteOffset: position, as: UInt8.self) : nil
        }
        var position = start
        if byte(position) == minus { position += 1 }
        guard isDigit(position) else { return nil }
        if byte(position) == zero {
            position += 1
        } else {
            while isDigit(position) { position += 1 }
        }
        if byte(position) == dot {
            position += 1
            guard isDigit(position) else { return nil }
            while isDigit(position) { position += 1 }
        }
        if byte(position) == lowerE || byte(position) == upperE {
            position += 1
            if byte(position) == plus || byte(position) == minus { position += 1 }
            guard isDigit(position) else { return nil }
            while isDigit(position) { position += 1 }
        }
        return position
    }

    /// The field named by the `count` bytes at `key`, or -1; the guess is tried first.
    @inline(__always)
    private func fieldIndex(
        _ key: UnsafeRawPointer, count: Int, guess: Int, names: UnsafeBufferPointer<UInt64>,
        counts: UnsafeBufferPointer<Int>
    ) -> Int {
        if guess >= 0, matches(key, count: count, field: guess, names: names, counts: counts) { return guess }
        for field in 0..<fieldCount where matches(key, count: count, field: field, names: names, counts: counts) {
            return field
        }
        return -1
    }

    /// Whether the key is the field's name: its words against the name's, the last masked to
    /// the key's bytes (a key may be read up to 32 bytes on: `padding` covers it).
    @inline(__always)
    private func matches(
        _ key: UnsafeRawPointer, count: Int, field: Int, names: UnsafeBufferPointer<UInt64>,
        counts: UnsafeBufferPointer<Int>
    ) -> Bool {
        guard counts[field] == count else { return false }
        var offset = 0
        var word = field * Self.wordsPerName
        while offset < count {
            let left = count - offset
            let mask: UInt64 = left >= 8 ? ~0 : (1 << UInt64(8 * left)) &- 1
            let bytes = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            guard (bytes ^ names[word]) & mask == 0 else { return false }
            offset += 8
            word += 1
        }
        return true
    }

    @inline(__always)
    private func load32(_ base: UnsafeRawPointer, _ position: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    private let trueWord: UInt32 = 0x6575_7274  // "true", little-endian
    private let falsWord: UInt32 = 0x736C_6166  // "fals"
    private let nullWord: UInt32 = 0x6C6C_756E  // "null"
    private let quote: UInt8 = 0x22
    private let openBrace: UInt8 = 0x7B
    private let closeBrace: UInt8 = 0x7D
    private let colon: UInt8 = 0x3A
    private let comma: UInt8 = 0x2C
    private let space: UInt8 = 0x20
    private let tab: UInt8 = 0x09
    private let cr: UInt8 = 0x0D
    private let minus: UInt8 = 0x2D
    private let plus: UInt8 = 0x2B
    private let dot: UInt8 = 0x2E
    private let zero: UInt8 = 0x30
    private let nine: UInt8 = 0x39
    private let lowerE: UInt8 = 0x65
    private let upperE: UInt8 = 0x45
    private let lowerT: UInt8 = 0x74
    private let lowerF: UInt8 = 0x66
    private let lowerN: UInt8 = 0x6E
}
