/// Cuts a JSON array's elements out of its bytes as they come, following strings, escapes and
/// nesting; `failed` once the bytes are no array (its reading whole then says why). Each
/// element keeps its line and column, so that it is parsed alone as the whole file would
/// parse it (`JSONParser.parsing(_:line:start:lineStart:_:)`, `lineStart: -column`). Both
/// array readers stream through it: the canonical one (`JSONReader.readArray`) and the
/// domain's documents.
public struct JSONArrayCutter: Sendable {
    /// An element's bytes, its line and its column there (from 0).
    public struct Element: Sendable {
        public var bytes: [UInt8]
        public var line: Int
        public var column: Int
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

    public init() {}

    public var failed: Bool { if case .failed = state { true } else { false } }
    public var closed: Bool { if case .closed = state { true } else { false } }
    /// The bytes held for an element not yet closed.
    public var held: Int { buffer.count }

    public mutating func scan(_ bytes: ArraySlice<UInt8>, atEnd: Bool) {
        buffer += bytes
        if case .opening = state, position == 0, buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        while position < buffer.count, !failed {
            step(buffer[position])
            position += 1
        }
        if atEnd, !closed { state = .failed }
    }

    /// The elements closed since the last call; the bytes before the open one are let go.
    public mutating func takeElements() -> [Element] {
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
