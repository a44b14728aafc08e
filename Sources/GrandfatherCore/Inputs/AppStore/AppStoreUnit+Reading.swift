import GrandfatherEngine

/// How an App Store file is cut into its top-level units: JWS lines, or JSON values and syntax
/// errors, whole or streamed a piece at a time.
extension AppStoreUnit {
    init(_ unit: JSONDocuments.Unit) {
        switch unit {
        case .element(let element): self = .element(element)
        case .rejected(let line, let reason): self = .rejected(line: line, reason: reason)
        }
    }

    /// A JSON array (each element a unit), or one or more top-level values (one object, or
    /// JSON Lines).
    static func json(_ bytes: [UInt8]) -> [AppStoreUnit] {
        JSONDocuments.records(bytes).map(AppStoreUnit.init)
    }

    /// A text file of compact JWS, one a line; blank lines are skipped.
    static func jwsLines(_ bytes: [UInt8]) -> [AppStoreUnit] {
        var units: [AppStoreUnit] = []
        var cutter = JWSLineCutter()
        cutter.cut(bytes[...]) { units.append($0) }
        cutter.end { units.append($0) }
        return units
    }

    /// The JWS lines of the file at `path`, handed to `body` one at a time as they are read, a
    /// piece of the file at a time: what `jwsLines(_:)` gives of the whole file.
    static func streamJWSLines(
        at path: String, piece: Int, _ body: (AppStoreUnit) -> Void
    ) throws(GrandfatherError) -> ByteSource {
        let source = try InputFile.open(path)
        var chunk = [UInt8](repeating: 0, count: piece)
        // The cutter carries a line a piece leaves open into the next: no buffer of its own here.
        var cutter = JWSLineCutter()
        var offset = source.dataStart
        while true {
            let count = try InputFile.read(source, at: offset, count: piece, into: &chunk)
            guard count > 0 else { break }
            offset += count
            cutter.cut(chunk[0..<count], body)
            guard cutter.held <= JSONDocuments.maximumFileSize else {
                throw .input(
                    file: path, line: cutter.line + 1,
                    message:
                        "App Store file: a line of more than \(JSONDocuments.maximumFileSize >> 20) MiB, over what is read whole"
                )
            }
        }
        cutter.end(body)
        return source
    }
}

/// Cuts bytes into JWS lines, across as many pieces as a file comes in: a line is handed on
/// once its line break is seen, or at the end.
private struct JWSLineCutter {
    /// Lines handed on or skipped so far.
    private(set) var line = 0
    /// The bytes of the line not yet ended.
    private var open: [UInt8] = []
    /// How many bytes the line not yet ended holds.
    var held: Int { open.count }

    mutating func cut(_ bytes: ArraySlice<UInt8>, _ body: (AppStoreUnit) -> Void) {
        var start = bytes.startIndex
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            open += bytes[start..<end]
            hand(body)
            start = end + 1
        }
        open += bytes[start...]
    }

    /// The last line, which no line break ends.
    mutating func end(_ body: (AppStoreUnit) -> Void) {
        hand(body)
    }

    private mutating func hand(_ body: (AppStoreUnit) -> Void) {
        line += 1
        var text = open[...]
        if line == 1, text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        if !text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            body(.jws(line: line, text: String(decoding: text, as: UTF8.self)))
        }
        open.removeAll(keepingCapacity: true)
    }
}
