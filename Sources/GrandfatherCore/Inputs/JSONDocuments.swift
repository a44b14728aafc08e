import GrandfatherEngine

/// The top-level values of a JSON file whose records are whole documents (App Store files,
/// RevenueCat subscriber responses): a JSON array's elements, or values one after another (one
/// document, or JSON Lines), each at the line it starts on. A syntax error is one rejected
/// unit; in JSON Lines, reading resumes at the next line that starts an object.
enum JSONDocuments {
    enum Unit: Sendable {
        /// One top-level value.
        case element(JSONValue.Located)
        /// A syntax error, where it stands among the units.
        case rejected(line: Int, reason: String)
    }

    /// The units of `bytes` as records: a value that repeats a key in any of its objects is
    /// rejected at the line it starts on, as the canonical reader and the policy loader
    /// refuse one (the first or the last of the two would be a guess).
    static func records(_ bytes: [UInt8], line: Int = 1) -> [Unit] {
        var open: Int?
        return records(bytes, line: line, open: &open)
    }

    /// `records(_:line:)`, noting in `open` the place of the first value whose reading ran to
    /// the end of `bytes` and failed there: a value more bytes may complete.
    private static func records(_ bytes: [UInt8], line: Int, open: inout Int?) -> [Unit] {
        units(bytes, line: line, open: &open, refusingRepeatedKeys: true)
    }

    /// The units of `bytes` (a UTF-8 byte-order mark is skipped), whose first byte is on `line`.
    static func units(_ bytes: [UInt8], line: Int = 1) -> [Unit] {
        var open: Int?
        return units(bytes, line: line, open: &open)
    }

    private static func units(
        _ bytes: [UInt8], line: Int, open: inout Int?, refusingRepeatedKeys: Bool = false
    ) -> [Unit] {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return JSONParser.parsing(bytes, line: line, start: start) { parser in
            parser.remembersTexts = true
            parser.findsRepeatedKeys = refusingRepeatedKeys
            parser.skipWhitespace()
            var units: [Unit] = []
            if parser.current == UInt8(ascii: "[") {
                arrayUnits(&parser, into: &units)
            } else {
                valueUnits(&parser, into: &units, open: &open)
            }
            return units
        }
    }

    private static func arrayUnits(_ parser: inout JSONParser, into units: inout [Unit]) {
        _ = parser.consume(UInt8(ascii: "["))
        do throws(JSONSyntaxError) {
            if !parser.consume(UInt8(ascii: "]")) {
                while true {
                    units.append(try element(&parser))
                    if parser.consume(UInt8(ascii: ",")) { continue }
                    if parser.consume(UInt8(ascii: "]")) { break }
                    throw parser.error("expected ',' or ']' in the array")
                }
            }
            parser.skipWhitespace()
            if !parser.isAtEnd { throw parser.error("unexpected text after the array") }
        } catch {
            units.append(
                .rejected(line: error.line, reason: error.reason(at: "column \(error.column)")))
        }
    }

    /// A broken value is rejected at the line it starts on (SPEC §6), and reading resumes at
    /// the next line after that one that starts an object: a JSON Lines value cut short
    /// takes none of the lines after it with it.
    private static func valueUnits(
        _ parser: inout JSONParser, into units: inout [Unit], open: inout Int?
    ) {
        while true {
            parser.skipWhitespace()
            if parser.isAtEnd { return }
            let start = parser.mark
            let line = parser.line
            do throws(JSONSyntaxError) {
                units.append(try element(&parser))
            } catch {
                parser.skipWhitespace()
                if open == nil, parser.isAtEnd { open = units.count }
                let place = error.line == line ? "column \(error.column)" : "line \(error.line), column \(error.column)"
                units.append(.rejected(line: line, reason: error.reason(at: place)))
                parser.rewind(to: start)
                guard parser.resume(atNextLineStartingWith: UInt8(ascii: "{")) else { return }
            }
        }
    }

    /// The value at the parser, located at the line it starts on; rejected there when the
    /// parser finds a key given twice in any of its objects.
    private static func element(_ parser: inout JSONParser) throws(JSONSyntaxError) -> Unit {
        parser.skipWhitespace()
        let line = parser.line
        parser.firstRepeatedKey = nil
        let value = try parser.parseValue()
        if let repeated = parser.firstRepeatedKey {
            return .rejected(
                line: line,
                reason:
                    "duplicate key \(Excerpt.of(repeated.key)) at line \(repeated.line), column \(repeated.column)")
        }
        return .element(JSONValue.Located(value, line: line))
    }
}

extension JSONDocuments {
    /// How much of a JSON file recognition reads, at most, to find its first record.
    static let maximumPeek = 16 << 20

    /// The largest file of JSON documents read whole (subscriber responses, webhook events, and
    /// any such file that is one JSON array), and the largest value a streamed file may hold.
    static let maximumFileSize = 1 << 30

    /// A file of JSON documents (`what` names them in the error), read whole: its source and
    /// its top-level values as records.
    static func read(at path: String, what: String) throws(GrandfatherError) -> (
        source: ByteSource, units: [Unit]
    ) {
        let source = try InputFile.open(path)
        guard source.size <= maximumFileSize else {
            throw .input(
                file: path, line: nil,
                message: "\(what) of \(source.size) bytes are over the \(maximumFileSize >> 20) MiB read whole")
        }
        return (source, records(try InputFile.readAll(source)))
    }
}

extension JSONDocuments {
    /// How much of a file is read at once when its records are streamed.
    static let streamChunk = 1 << 20

    /// A file of JSON documents (`what` names them in the error), its records handed to `body`
    /// one at a time as they are read, so that memory holds a piece of the file and the values
    /// in it, never the whole file's tree: JSON Lines a megabyte at a time, each piece cut at
    /// a line end, and a value a cut left open read again whole with the next piece (a
    /// document spread over lines is read once it closes). A file that is one JSON array is
    /// streamed element by element (`streamArray`). Records, their lines and their rejections
    /// are what `read(at:what:)` gives.
    static func stream(
        at path: String, what: String, piece: Int = streamChunk, _ body: (Unit) -> Void
    ) throws(GrandfatherError) -> ByteSource {
        try stream(at: path, what: what, piece: piece, map: { $0 }, body)
    }

    /// `stream(at:what:piece:_:)`, each record first given to `map` (a source's reading of one
    /// record, which needs nothing of the others), then the results handed to `body` one at a
    /// time, in the file's order (what it folds together). Parsing a piece in two halves on
    /// two cores was tried and measured no faster on this machine: parsing is bound by allocation,
    /// and the command keeps one malloc arena (`MallocArenas`).
    static func stream<Mapped>(
        at path: String, what: String, piece: Int = streamChunk, map: (Unit) -> Mapped,
        _ body: (Mapped) -> Void
    ) throws(GrandfatherError) -> ByteSource {
        let source = try InputFile.open(path)
        var chunk = [UInt8](repeating: 0, count: piece)
        var pending: [UInt8] = []
        var line = 1
        var offset = source.dataStart
        var decided = false
        while true {
            let count = try InputFile.read(source, at: offset, count: piece, into: &chunk)
            offset += count
            pending += chunk[0..<count]
            if !decided {
                let text = pending.starts(with: [0xEF, 0xBB, 0xBF]) ? pending.dropFirst(3) : pending[...]
                if let first = text.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
                    decided = true
                    if first == UInt8(ascii: "[") {
                        // One array: its elements handed on as each closes.
                        return try streamArray(source, at: path, what: what, piece: piece, map: map, body)
                    }
                }
            }
            guard count > 0 else {
                records(pending, line: line).forEach { body(map($0)) }
                return source
            }
            guard pending.count <= maximumFileSize else {
                throw .input(
                    file: path, line: line,
                    message: "\(what): a value of more than \(maximumFileSize >> 20) MiB, over what is read whole")
            }
            guard let lastBreak = pending.lastIndex(of: 0x0A) else { continue }
            let piece = Array(pending[...lastBreak])
            var open: Int?
            let units = records(piece, line: line, open: &open)
            var handed = units.count
            var keep = lastBreak + 1
            var nextLine = line + ASCII.lineFeeds(in: piece[...])
            // A value whose reading ran to the cut may be one the cut left open: it, and what
            // was read after it, are read again with the next piece.
            if let open, case .rejected(let at, _) = units[open],
                let start = Self.offset(ofLine: at - line + 1, in: piece)
            {
                handed = open
                keep = start
                nextLine = at
            }
            for unit in units[..<handed] { body(map(unit)) }
            pending.removeSubrange(..<keep)
            line = nextLine
        }
    }

    /// Where line `number` (from 1) of `bytes` starts; `nil` past its last line.
    private static func offset(ofLine number: Int, in bytes: [UInt8]) -> Int? {
        guard number > 1 else { return 0 }
        var seen = 1
        for index in bytes.indices where bytes[index] == 0x0A {
            seen += 1
            if seen == number { return index + 1 }
        }
        return nil
    }
}

extension FilePeek {
    /// The first record of a JSON file, which tells its shape: the first element of a
    /// top-level array, else the first top-level value. Reads more of the file while that
    /// value is cut short, within `JSONDocuments.maximumPeek`. A first value that is broken,
    /// not cut short, is passed over for the first whole one after it: the reader rejects it
    /// at its line and reads on, as it does a broken later one (issue 51, item 13). `nil`
    /// for a file that starts with neither `{` nor `[`, or holds no whole value in the peek.
    mutating func firstJSONRecord() throws(GrandfatherError) -> JSONValue.Located? {
        guard let first = firstNonBlank, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        while true {
            let units = JSONDocuments.units(prefix)
            if case .element(let element)? = units.first { return element.elements?.first ?? element }
            guard prefix.count < JSONDocuments.maximumPeek, try readMore() else {
                for case .element(let element) in units { return element.elements?.first ?? element }
                return nil
            }
        }
    }

    /// Why the first value of a JSON file cannot be read (`line 1: purchaseToken is not
    /// valid UTF-8 (at column 19)`), when it cannot; for the sentence of a file no reader takes.
    func firstJSONProblem() -> String? {
        guard case .rejected(let line, let reason)? = JSONDocuments.units(prefix).first else { return nil }
        return "line \(line): \(reason)"
    }
}
