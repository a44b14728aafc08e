import GrandfatherEngine

/// A file that is one JSON array, its elements handed on as they close: memory holds a piece
/// of the file and the elements in it, never the whole array's tree. Each element is cut out
/// at the commas of the array's own level (strings and nesting followed byte by byte) and
/// parsed alone, with the start of its first line, so that its lines and columns are the
/// whole file's. A file that breaks anywhere is read again whole (`JSONDocuments.read`), and
/// only the units past those handed on already are handed on: a broken array gives the
/// elements before the break and one rejection, as when it is read whole.
extension JSONDocuments {
    static func streamArray<Mapped>(
        _ source: ByteSource, at path: String, what: String, piece: Int,
        map: (Unit) -> Mapped, _ body: (Mapped) -> Void
    ) throws(GrandfatherError) -> ByteSource {
        var scanner = ArrayScanner()
        var chunk = [UInt8](repeating: 0, count: piece)
        var offset = source.dataStart
        var handed = 0
        while true {
            let count = try engineWork { try source.read(at: offset, count: piece, into: &chunk) }
            offset += count
            scanner.scan(chunk[0..<count], atEnd: count == 0)
            let elements = scanner.takeElements()
            let parsed = Self.parse(elements, map: map)
            let whole = parsed.count == elements.count && !scanner.failed
            for mapped in parsed { body(mapped) }
            handed += parsed.count
            if !whole {
                // Broken somewhere: the whole file's reading says where and how.
                let (_, units) = try read(at: path, what: what)
                for unit in units.dropFirst(handed) { body(map(unit)) }
                return source
            }
            // A closed array is read on to the end: nothing but blanks may follow it.
            if scanner.closed, count == 0 { return source }
            guard scanner.held <= maximumFileSize else {
                throw .input(
                    file: path, line: nil,
                    message: "\(what): a value of more than \(maximumFileSize >> 20) MiB, over what is read whole")
            }
        }
    }

    /// The elements parsed, up to the first that does not parse whole.
    private static func parse<Mapped>(_ elements: [ArrayScanner.Element], map: (Unit) -> Mapped) -> [Mapped] {
        var out: [Mapped] = []
        out.reserveCapacity(elements.count)
        for element in elements {
            guard let unit = element.unit else { break }
            out.append(map(unit))
        }
        return out
    }
}

/// Cuts a JSON array's elements out of its bytes as they come, following strings, escapes and
/// nesting; `failed` once the bytes are no array (its reading whole then says why).
private struct ArrayScanner {
    /// An element's bytes, its line and its column there (from 0).
    struct Element: Sendable {
        var bytes: [UInt8]
        var line: Int
        var column: Int

        /// The element as `JSONDocuments.records` gives it; `nil` when it is not one whole
        /// value.
        var unit: JSONDocuments.Unit? {
            // Columns on its first line count from where that line starts, before the element.
            JSONParser.parsing(bytes[...], line: line, start: 0, lineStart: -column) {
                parser -> JSONDocuments.Unit? in
                do throws(JSONSyntaxError) {
                    let value = JSONValue.Located(try parser.parseValue(), line: line)
                    parser.skipWhitespace()
                    guard parser.isAtEnd else { return nil }
                    if let repeated = value.value.firstRepeatedKey {
                        return .rejected(
                            line: line,
                            reason:
                                "duplicate key \(Excerpt.of(repeated.key)) at line \(repeated.line), column \(repeated.column)"
                        )
                    }
                    return .element(value)
                } catch {
                    return nil
                }
            }
        }
    }

    private enum State {
        /// Before the `[` (a byte-order mark and blanks allowed).
        case opening
        /// Before an element: the first may be `]`, one after a comma may not.
        case beforeElement(first: Bool)
        case inElement(depth: Int, inString: Bool, escaped: Bool)
        /// After the `]`: blanks only.
        case closed
        case failed
    }

    private var state = State.opening
    private var buffer: [UInt8] = []
    /// Where scanning stands in `buffer`, the line there and where that line starts.
    private var position = 0
    private var line = 1
    private var lineStart = 0
    /// The element under way: where it starts, its line and its column.
    private var open: (start: Int, line: Int, column: Int)?
    private var elements: [Element] = []
    private var previous: UInt8 = 0

    var failed: Bool { if case .failed = state { true } else { false } }
    var closed: Bool { if case .closed = state { true } else { false } }
    /// The bytes held for an element not yet closed.
    var held: Int { buffer.count }

    mutating func scan(_ bytes: ArraySlice<UInt8>, atEnd: Bool) {
        buffer += bytes
        if case .opening = state, position == 0, buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        while position < buffer.count, !failed {
            step(buffer[position])
            position += 1
        }
        if atEnd, !closed { state = .failed }
    }

    /// The elements closed since the last call; the bytes before the open one are let go.
    mutating func takeElements() -> [Element] {
        let taken = elements
        elements = []
        let keep = open?.start ?? position
        if keep > 0 {
            buffer.removeSubrange(..<keep)
            position -= keep
            lineStart -= keep
            if let held = open { open = (held.start - keep, held.line, held.column) }
        }
        return taken
    }

    private mutating func step(_ byte: UInt8) {
        // Lines as the parser counts them: LF, CR, and CR LF once.
        if byte == 0x0D || (byte == 0x0A && previous != 0x0D) { line += 1 }
        if byte == 0x0D || byte == 0x0A { lineStart = position + 1 }
        previous = byte
        switch state {
        case .opening:
            if Self.isBlank(byte) { return }
            state = byte == UInt8(ascii: "[") ? .beforeElement(first: true) : .failed
        case .beforeElement(let first):
            if Self.isBlank(byte) { return }
            if byte == UInt8(ascii: "]") {
                state = first ? .closed : .failed
                return
            }
            open = (position, line, position - lineStart)
            state = .inElement(depth: 0, inString: false, escaped: false)
            inElement(byte, depth: 0, inString: false, escaped: false)
        case .inElement(let depth, let inString, let escaped):
            inElement(byte, depth: depth, inString: inString, escaped: escaped)
        case .closed:
            if !Self.isBlank(byte) { state = .failed }
        case .failed:
            return
        }
    }

    private mutating func inElement(_ byte: UInt8, depth: Int, inString: Bool, escaped: Bool) {
        if inString {
            state = .inElement(
                depth: depth, inString: escaped || byte != UInt8(ascii: "\""),
                escaped: !escaped && byte == UInt8(ascii: "\\"))
            return
        }
        switch byte {
        case UInt8(ascii: "\""): state = .inElement(depth: depth, inString: true, escaped: false)
        case UInt8(ascii: "{"), UInt8(ascii: "["): state = .inElement(depth: depth + 1, inString: false, escaped: false)
        case UInt8(ascii: "}"),
            UInt8(ascii: "]") where depth > 0:
            state = .inElement(depth: depth - 1, inString: false, escaped: false)
        case UInt8(ascii: ","),
            UInt8(ascii: "]") where depth == 0:
            close()
            state = byte == UInt8(ascii: ",") ? .beforeElement(first: false) : .closed
        case UInt8(ascii: "}"):
            state = .failed
        default:
            return
        }
    }

    private mutating func close() {
        guard let held = open else { return }
        elements.append(Element(bytes: Array(buffer[held.start..<position]), line: held.line, column: held.column))
        open = nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
