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
        var scanner = JSONArrayCutter()
        var chunk = [UInt8](repeating: 0, count: piece)
        var offset = source.dataStart
        var handed = 0
        while true {
            let count = try InputFile.read(source, at: offset, count: piece, into: &chunk)
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
    private static func parse<Mapped>(_ elements: [JSONArrayCutter.Element], map: (Unit) -> Mapped) -> [Mapped] {
        var out: [Mapped] = []
        out.reserveCapacity(elements.count)
        for element in elements {
            guard let unit = element.unit else { break }
            out.append(map(unit))
        }
        return out
    }
}

extension JSONArrayCutter.Element {
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
