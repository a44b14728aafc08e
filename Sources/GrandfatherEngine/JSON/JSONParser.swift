/// A small JSON parser over bytes, written by hand because the readers need what
/// Foundation's does not give: numbers as literal text, the line of every element,
/// a depth limit instead of a stack overflow, and no bridging through `Any`.
public struct JSONParser {
    /// Nesting deeper than this is an error, not a crash.
    static let maximumDepth = 512

    private let bytes: UnsafeRawBufferPointer
    public private(set) var index: Int
    public private(set) var line: Int
    private var lineStart: Int
    /// Where a parser over many records keeps the texts it read lately (`remembersTexts`).
    private var recent: RecentTexts?
    /// The members of the objects being parsed, inner ones above outer ones: each object's
    /// list is made once, at its size, when it closes (appending to a list of its own would
    /// grow it, reallocating, several times an object).
    private var openMembers: [JSONMember] = []
    /// Whether each object is checked for a key given twice as it closes (`firstRepeatedKey`).
    public var findsRepeatedKeys = false
    /// Of the members whose key repeats an earlier key of their object, the first in the text
    /// since this was last cleared: what `JSONValue.firstRepeatedKey` gives of the values
    /// parsed, found while their members are at hand rather than by walking each tree again.
    public var firstRepeatedKey: JSONMember?

    /// Creates a parser over `bytes` from `start`, which is on `line`; columns count from
    /// `lineStart` (by default `start`: the parser starts a line).
    init(bytes: UnsafeRawBufferPointer, line: Int = 1, start: Int = 0, lineStart: Int? = nil) {
        self.bytes = bytes
        self.index = start
        self.line = line
        self.lineStart = lineStart ?? start
    }

    var column: Int { index - lineStart + 1 }

    /// Whether a text read again is the string read before: worth it for a parser over a
    /// file of records, each of which repeats the others' keys (`RecentTexts`), not for one
    /// over a single value.
    public var remembersTexts: Bool {
        get { recent != nil }
        set { recent = newValue ? (recent ?? RecentTexts()) : nil }
    }

    /// A place in the bytes to come back to, with the line count there.
    public struct Mark {
        fileprivate var index: Int
        fileprivate var line: Int
        fileprivate var lineStart: Int
    }

    /// Where the parser stands.
    public var mark: Mark { Mark(index: index, line: line, lineStart: lineStart) }

    /// Goes back to `mark`: a JSON Lines reader resumes after the line a broken value
    /// started on, not after the line where the break was found.
    public mutating func rewind(to mark: Mark) {
        index = mark.index
        line = mark.line
        lineStart = mark.lineStart
    }
    public var isAtEnd: Bool { index >= bytes.count }
    public var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Skips spaces, tabs and line breaks, counting lines.
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            case 0x0D:
                index += 1
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    /// Moves to the start of the next line that begins with `byte`, counting lines; `false`
    /// (at the end) when there is none. Where a JSON Lines reader resumes after a syntax
    /// error: a pretty-printed document indents its inner objects, so a line that starts
    /// with `{` starts a new value.
    public mutating func resume(atNextLineStartingWith byte: UInt8) -> Bool {
        while index < bytes.count {
            let current = bytes[index]
            index += 1
            guard current == 0x0A || current == 0x0D else { continue }
            if current == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
            line += 1
            lineStart = index
            if index < bytes.count, bytes[index] == byte { return true }
        }
        return false
    }

    /// Consumes `byte` if it is next (after whitespace).
    public mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if current == byte {
            index += 1
            return true
        }
        return false
    }

    public func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: column, message: message)
    }

    /// Parses one value.
    public mutating func parseValue(depth: Int = 0) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumberText())
        default: throw error("unexpected character '\(printable(byte))'")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        index += 1
        if consume(UInt8(ascii: "}")) { return .object([]) }
        if openMembers.capacity == 0 { openMembers.reserveCapacity(32) }
        let base = openMembers.count
        defer { openMembers.removeSubrange(base...) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyLine = line
            let keyColumn = column
            let key = try parseString()
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after key") }
            skipWhitespace()
            let valueLine = line
            let valueColumn = column
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try parseValue(depth: depth)
            } catch {
                // Named by the innermost member, so that a record's rejection can say which.
                var named = error
                if named.key == nil { named.key = key }
                throw named
            }
            openMembers.append(
                JSONMember(
                    key: key, value: value, line: keyLine, column: keyColumn, valueLine: valueLine,
                    valueColumn: valueColumn))
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) {
                if findsRepeatedKeys { noteRepeatedKey(from: base) }
                return .object(closeObject(from: base))
            }
            throw error("expected ',' or '}' in object")
        }
    }

    /// Notes the first member from `base` on whose key repeats an earlier one of its object,
    /// when it comes before any noted so far. Keys come before their values in the text, so
    /// the earliest by place is the first a walk of the tree, member by member, would meet.
    private mutating func noteRepeatedKey(from base: Int) {
        guard let repeated = JSONMember.firstRepeat(in: openMembers[base...]) else { return }
        let member = openMembers[repeated]
        if let first = firstRepeatedKey, (first.line, first.column) < (member.line, member.column) { return }
        firstRepeatedKey = member
    }

    /// The members on the stack from `base`, moved off it into a list of their own (no
    /// retain and release each, as copying them out and then dropping them would cost).
    private mutating func closeObject(from base: Int) -> [JSONMember] {
        let count = openMembers.count - base
        return [JSONMember](unsafeUninitializedCapacity: count) { members, initialized in
            for place in stride(from: count - 1, through: 0, by: -1) {
                members.initializeElement(at: place, to: openMembers.removeLast())
            }
            initialized = count
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        index += 1
        var elements: [JSONElement] = []
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            let (line, column) = (line, column)
            elements.append(JSONElement(value: try parseValue(depth: depth), line: line, column: column))
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            throw error("expected ',' or ']' in array")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    private mutating func parseNumberText() throws(JSONSyntaxError) -> String {
        let range = try scanNumber()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Scans a number, returning where its literal text lies.
    mutating func scanNumber() throws(JSONSyntaxError) -> Range<Int> {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first &- 0x30 <= 9 else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, digit &- 0x30 <= 9 else { throw error("invalid number") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, digit &- 0x30 <= 9 else { throw error("invalid number") }
            skipDigits()
        }
        return start..<index
    }

    private mutating func skipDigits() {
        while let byte = current, byte &- 0x30 <= 9 { index += 1 }
    }

    /// Scans a string starting at its opening quote without decoding it: the raw bytes between
    /// the quotes, and whether they hold escapes (then `parseString` must decode them).
    mutating func scanString() throws(JSONSyntaxError) -> (range: Range<Int>, hasEscapes: Bool) {
        let start = index
        index += 1
        var hasEscapes = false
        while index < bytes.count {
            // Eight bytes at a time while none is a quote, a backslash or a control character;
            // then straight to the first that is.
            if index + 8 <= bytes.count {
                let found = Self.stringEnds(
                    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                guard found != 0 else {
                    index += 8
                    continue
                }
                index += found.trailingZeroBitCount >> 3
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start + 1..<index - 1, hasEscapes)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                index += 2
                continue
            }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        throw error("unterminated string")
    }

    /// The high bit of each of eight bytes (little-endian) that is a quote, a backslash or
    /// below 0x20, by the borrow tricks for "a zero byte" and "a byte below n". A borrow can
    /// mark a byte above the first such byte, never one below it, so the lowest bit set is
    /// exactly the first.
    @inline(__always)
    private static func stringEnds(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let below = (word &- ones &* 0x20) & ~word & highs
        return zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C)) | below
    }

    /// Moves back to `position` (to decode a string that `scanString` found escaped).
    mutating func rewind(to position: Int) {
        index = position
    }

    /// Parses a string starting at its opening quote, decoding escapes. Invalid UTF-8 is an error.
    public mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. ASCII needs no validating (most ids, keys and dates are).
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii {
                    if RecentTexts.kept.contains(raw.count), let text = recent?.text(raw) { return text }
                    return String(decoding: raw, as: UTF8.self)
                }
                guard let text = String(validating: raw, as: UTF8.self) else {
                    throw error(JSONSyntaxError.invalidUTF8)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        index = start - 1
        guard let text = String(validating: try parseStringBytes(), as: UTF8.self) else {
            throw error(JSONSyntaxError.invalidUTF8)
        }
        return text
    }

    /// Parses a string starting at its opening quote, decoding escapes, into bytes that are
    /// not checked for UTF-8: a record's field is checked where it is read, so that invalid
    /// UTF-8 rejects one row whether or not its string holds escapes.
    mutating func parseStringBytes() throws(JSONSyntaxError) -> [UInt8] {
        index += 1
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return scalars
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { throw error("unexpected end of input") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let pair = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            // Not its low half: that escape is read on its own.
                            index = pair
                        }
                    }
                    if (0xD800..<0xE000).contains(code) {
                        // A lone surrogate, written in its own three-byte form as UTF-16 input's
                        // is (`UTF16Transcoder`): not UTF-8, so the field holding it is refused
                        // as invalid UTF-8 is (`TextBytes`), never read as U+FFFD.
                        scalars.append(0xE0 | UInt8(code >> 12))
                        scalars.append(0x80 | UInt8((code >> 6) & 0x3F))
                        scalars.append(0x80 | UInt8(code & 0x3F))
                        continue
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x37
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}

extension JSONParser {
    /// Parses `bytes` from `start` as one whole JSON document: a value, then nothing but
    /// whitespace (else `trailing` is the error).
    static func parseDocument(
        _ bytes: UnsafeRawBufferPointer, start: Int = 0, trailing: String
    ) -> Result<JSONValue, JSONSyntaxError> {
        var parser = JSONParser(bytes: bytes, start: start)
        do throws(JSONSyntaxError) {
            let value = try parser.parseValue()
            parser.skipWhitespace()
            guard parser.isAtEnd else { throw parser.error(trailing) }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    /// Calls `body` with the bytes being parsed.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(bytes)
    }
}
