import Foundation

/// Reads JSON records (SPEC §2, §8.3): a top-level array of objects, or JSON Lines, both
/// streamed. Each object becomes a `RawRow`: strings as their text, numbers as
/// their literal text, booleans as "true"/"false", null as absent, and an object or array
/// in a known field marked nested so that the row is rejected.
///
/// Objects are scanned straight into the row (no tree per record): values are copied into
/// one scratch buffer the row points into, and only escaped strings and nested values take
/// the general parser.
public struct JSONReader {
    private let fieldNames: [[UInt8]]
    private let fieldCount: Int
    /// The names back to back, and where each lies in them: compared without touching an
    /// array per name (each access to one retained and released it).
    private let nameBytes: [UInt8]
    private let nameRanges: [Range<Int>]
    private let flat: FlatObjectReader?
    /// Whether flat lines are read by `FlatObjectReader` (tests turn it off to compare).
    public var readsFlatLines = true

    /// Prepares to read records whose field `i` is the key `fieldNames[i]`.
    public init(fieldNames names: [String]) {
        fieldNames = names.map { Array($0.utf8) }
        fieldCount = fieldNames.count
        nameBytes = fieldNames.flatMap { $0 }
        var start = 0
        nameRanges = fieldNames.map { name in
            defer { start += name.count }
            return start..<start + name.count
        }
        flat = FlatObjectReader(fieldNames: fieldNames)
    }

    /// What reading a range of JSON Lines found.
    public struct LinesSummary {
        /// Line breaks in the range: the next range's lines start this much later.
        public var lineBreaks: Int
        /// Lines `FlatObjectReader` read rather than the scanner; tests check that flat lines
        /// are read by hand.
        var readFlat = 0
    }

    /// Streams `range` of a JSON Lines file: one object a line, blank lines skipped. The range
    /// starts at a line start; lines are counted from 1 at the range's start.
    public func readLines<Sink: RowSink>(
        _ source: ByteSource, range: Range<Int>, into sink: inout Sink, meter: ProgressMeter? = nil
    ) throws(EngineError) -> LinesSummary {
        // Padded, so that `FlatObjectReader` may read 64 bytes on from any place in a line.
        var chunk = [UInt8](repeating: 0, count: ByteSource.chunkSize + FlatObjectReader.padding)
        var pending: [UInt8] = []
        var line = 1
        var scratch = RecordScratch(fieldCount: fieldCount)
        var flatState = FlatObjectReader.State(fieldCount: fieldCount)
        defer {
            scratch.deallocate()
            flatState.deallocate()
        }
        let flat = readsFlatLines ? self.flat : nil
        var readFlat = 0
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = try source.read(
                at: offset, count: min(ByteSource.chunkSize, range.upperBound - offset), into: &chunk)
            guard count > 0 else { break }
            offset += count
            let linesBefore = line
            chunk.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var lineStart = 0
                var cursor = 0
                while cursor < count {
                    guard let newline = memchr(base + cursor, 0x0A, count - cursor) else { break }
                    let end = base.distance(to: UnsafeRawPointer(newline))
                    if pending.isEmpty {
                        if let flat, flat.read(base, from: lineStart, to: end, line: line, state: &flatState) {
                            sink.accept(flatState.row)
                            readFlat += 1
                        } else {
                            readLine(UnsafeRawBufferPointer(rebasing: raw[lineStart..<end]), line, &scratch, &sink)
                        }
                    } else {
                        pending.append(contentsOf: raw[lineStart..<end])
                        pending.withUnsafeBytes { readLine($0, line, &scratch, &sink) }
                        pending.removeAll(keepingCapacity: false)
                    }
                    line += 1
                    lineStart = end + 1
                    cursor = end + 1
                }
                pending.append(contentsOf: raw[lineStart..<count])
            }
            meter?.advance(bytes: count, rows: line - linesBefore)
        }
        if !pending.isEmpty { pending.withUnsafeBytes { readLine($0, line, &scratch, &sink) } }
        return LinesSummary(lineBreaks: line - 1, readFlat: readFlat)
    }

    private func readLine<Sink: RowSink>(
        _ bytes: UnsafeRawBufferPointer, _ line: Int, _ scratch: inout RecordScratch, _ sink: inout Sink
    ) {
        var parser = JSONParser(bytes: bytes, line: line)
        parser.skipWhitespace()
        if parser.isAtEnd { return }
        guard parser.current == UInt8(ascii: "{") else {
            sink.reject(line: line, column: nil, field: nil, reason: "not a JSON object")
            return
        }
        do throws(JSONSyntaxError) {
            if let duplicate = try scanObject(&parser, into: &scratch, line: line) {
                sink.reject(line: line, column: nil, field: duplicate, reason: "duplicate key \(duplicate)")
                return
            }
            parser.skipWhitespace()
            guard parser.isAtEnd else { throw parser.error("unexpected text after the object") }
            sink.accept(scratch.row)
        } catch {
            sink.reject(
                line: line, column: nil, field: nil,
                reason: "malformed JSON at column \(error.column): \(error.message)")
        }
    }

    /// Streams a JSON array file, `piece` bytes at a time, its elements cut out as they close
    /// (`JSONArrayCutter`) and each scanned alone into a row at its true line: memory holds a
    /// piece and the element under way, never the file. A file that breaks anywhere (a syntax
    /// error, text after the array) is read again whole (`readWholeArray`), and only the rows
    /// past those handed on already are handed on, so its rows and rejections are the same.
    public func readArray<Sink: RowSink>(
        _ source: ByteSource, into sink: inout Sink, piece: Int = 1 << 20
    ) throws(EngineError) {
        var cutter = JSONArrayCutter()
        var chunk = [UInt8](repeating: 0, count: piece)
        var offset = source.dataStart
        var scratch = RecordScratch(fieldCount: fieldCount)
        defer { scratch.deallocate() }
        var handed = 0
        while true {
            let count = try source.read(at: offset, count: piece, into: &chunk)
            offset += count
            cutter.scan(chunk[0..<count], atEnd: count == 0)
            var whole = !cutter.failed
            for element in cutter.takeElements() {
                guard readElement(element, scratch: &scratch, into: &sink) else {
                    whole = false
                    break
                }
                handed += 1
            }
            if !whole {
                var rest = SkippingSink(sink: sink, skip: handed)
                try readWholeArray(source, into: &rest)
                sink = rest.sink
                return
            }
            if cutter.closed, count == 0 { return }
            guard cutter.held <= Self.maximumElementBytes else {
                throw .input(
                    file: source.path, line: nil,
                    message: "a JSON array element of more than \(Self.maximumElementBytes >> 20) MiB")
            }
        }
    }

    /// The largest element a streamed array may hold (what was once the largest array read whole).
    public static let maximumElementBytes = 1 << 30

    /// Scans one element cut out of an array into a row (or rejects it, as the whole reading
    /// would); false when it does not parse whole, so that the whole reading must say why.
    private func readElement<Sink: RowSink>(
        _ element: JSONArrayCutter.Element, scratch: inout RecordScratch, into sink: inout Sink
    ) -> Bool {
        // Columns on its first line count from where that line starts, before the element.
        JSONParser.parsing(element.bytes[...], line: element.line, start: 0, lineStart: -element.column) {
            parser -> Bool in
            let line = element.line
            do throws(JSONSyntaxError) {
                if parser.current == UInt8(ascii: "{") {
                    let duplicate = try scanObject(&parser, into: &scratch, line: line)
                    parser.skipWhitespace()
                    guard parser.isAtEnd else { return false }
                    if let duplicate {
                        sink.reject(line: line, column: nil, field: duplicate, reason: "duplicate key \(duplicate)")
                    } else {
                        sink.accept(scratch.row)
                    }
                } else {
                    _ = try parser.parseValue()
                    parser.skipWhitespace()
                    guard parser.isAtEnd else { return false }
                    sink.reject(line: line, column: nil, field: nil, reason: "array element is not an object")
                }
                return true
            } catch {
                return false
            }
        }
    }

    /// Reads a whole JSON array file; a syntax error makes the rest of the file one rejected row.
    func readWholeArray<Sink: RowSink>(_ source: ByteSource, into sink: inout Sink) throws(EngineError) {
        let all = try source.readAll()
        var scratch = RecordScratch(fieldCount: fieldCount)
        defer { scratch.deallocate() }
        all.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw)
            guard parser.consume(UInt8(ascii: "[")) else { return }
            if parser.consume(UInt8(ascii: "]")) {
                trailing(&parser, into: &sink)
                return
            }
            while true {
                parser.skipWhitespace()
                let line = parser.line
                do throws(JSONSyntaxError) {
                    if parser.current == UInt8(ascii: "{") {
                        if let duplicate = try scanObject(&parser, into: &scratch, line: line) {
                            sink.reject(line: line, column: nil, field: duplicate, reason: "duplicate key \(duplicate)")
                        } else {
                            sink.accept(scratch.row)
                        }
                    } else {
                        _ = try parser.parseValue()
                        sink.reject(line: line, column: nil, field: nil, reason: "array element is not an object")
                    }
                    if parser.consume(UInt8(ascii: ",")) { continue }
                    if parser.consume(UInt8(ascii: "]")) { break }
                    throw parser.error("expected ',' or ']' in the array")
                } catch {
                    sink.reject(
                        line: line, column: nil, field: nil,
                        reason:
                            "malformed JSON at \(error.line):\(error.column): \(error.message); the rest of the file is one rejected row"
                    )
                    return
                }
            }
            trailing(&parser, into: &sink)
        }
    }

    private func trailing<Sink: RowSink>(_ parser: inout JSONParser, into sink: inout Sink) {
        parser.skipWhitespace()
        if !parser.isAtEnd {
            sink.reject(line: parser.line, column: nil, field: nil, reason: "text after the JSON array")
        }
    }

    /// Scans one object at the parser into `scratch.row`; returns the name of a known key
    /// given twice (the row is then rejected), else `nil`.
    private func scanObject(
        _ parser: inout JSONParser, into scratch: inout RecordScratch, line: Int
    ) throws(JSONSyntaxError) -> String? {
        scratch.reset(line: line)
        var duplicate: String?
        _ = parser.consume(UInt8(ascii: "{"))
        if parser.consume(UInt8(ascii: "}")) { return nil }
        var position = 0
        while true {
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: "\"") else { throw parser.error("expected a string key") }
            let keyStart = parser.index
            let (keyRange, keyEscaped) = try parser.scanString()
            // Lines of one export name their keys in one order: the field found at this place
            // in the last object is tried first.
            let guess = position < scratch.keyOrder.count ? scratch.keyOrder[position] : -1
            var field =
                keyEscaped
                ? -1 : parser.withBytes { fieldIndex(UnsafeRawBufferPointer(rebasing: $0[keyRange]), guess: guess) }
            if keyEscaped {
                parser.rewind(to: keyStart)
                let key = try parser.parseString()
                field = fieldNames.firstIndex(of: Array(key.utf8)) ?? -1
            }
            if position < scratch.keyOrder.count {
                scratch.keyOrder[position] = field
            } else {
                scratch.keyOrder.append(field)
            }
            position += 1
            guard parser.consume(UInt8(ascii: ":")) else { throw parser.error("expected ':' after key") }
            parser.skipWhitespace()
            if field >= 0, scratch.seen[field] {
                duplicate = String(decoding: fieldNames[field], as: UTF8.self)
            }
            if field >= 0 { scratch.seen[field] = true }
            try scanValue(&parser, field: field, into: &scratch)
            if parser.consume(UInt8(ascii: ",")) { continue }
            if parser.consume(UInt8(ascii: "}")) { return duplicate }
            throw parser.error("expected ',' or '}' in object")
        }
    }

    private func scanValue(
        _ parser: inout JSONParser, field: Int, into scratch: inout RecordScratch
    ) throws(JSONSyntaxError) {
        guard let byte = parser.current else { throw parser.error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "\""):
            let start = parser.index
            let (range, escaped) = try parser.scanString()
            guard field >= 0 else { return }
            if escaped {
                parser.rewind(to: start)
                // Unchecked bytes: invalid UTF-8 rejects the row where the field is read.
                let decoded = try parser.parseStringBytes()
                decoded.withUnsafeBytes { scratch.store(field: field, $0) }
            } else {
                parser.withBytes { scratch.store(field: field, UnsafeRawBufferPointer(rebasing: $0[range])) }
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let range = try parser.scanNumber()
            if field >= 0 {
                parser.withBytes { scratch.store(field: field, UnsafeRawBufferPointer(rebasing: $0[range])) }
            }
        case UInt8(ascii: "t"):
            try parser.literal("true")
            if field >= 0 { scratch.row.setBoolean(field: field) }
        case UInt8(ascii: "f"):
            try parser.literal("false")
            if field >= 0 { scratch.row.setBoolean(field: field) }
        case UInt8(ascii: "n"):
            try parser.literal("null")
        default:
            _ = try parser.parseValue(depth: 1)
            if field >= 0 { scratch.row.setNested(field: field) }
        }
    }

    private func fieldIndex(_ key: UnsafeRawBufferPointer, guess: Int) -> Int {
        nameBytes.withUnsafeBytes { names in
            func matches(_ index: Int) -> Bool {
                let range = nameRanges[index]
                guard range.count == key.count else { return false }
                guard let name = names.baseAddress, let bytes = key.baseAddress else { return true }
                return memcmp(name + range.lowerBound, bytes, range.count) == 0
            }
            if guess >= 0, matches(guess) { return guess }
            for index in 0..<fieldCount where matches(index) { return index }
            return -1
        }
    }

    /// `firstObjectKeys(_:layout:)` over a file's first bytes, with the syntax error that
    /// stopped it returned rather than thrown (more bytes may cure it).
    public static func firstObjectKeys(
        _ prefix: [UInt8], layout: RecordLayout
    ) -> (keys: [String]?, problem: JSONSyntaxError?) {
        prefix.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                return (try firstObjectKeys(raw, layout: layout), nil)
            } catch {
                return (nil, error)
            }
        }
    }

    /// The keys of the first object in a JSON array, or of the first line of a JSON Lines file
    /// that holds a well-formed object (a malformed line is a rejected row, not the file's
    /// kind), for recognition; `nil` when there is none. Values are skipped as the readers skip
    /// an unknown key's, so recognition stumbles on nothing the readers would take as a row.
    /// Throws the first syntax error met when no object was found: one at the end of `prefix`
    /// may be cured by reading more of the file.
    static func firstObjectKeys(
        _ prefix: UnsafeRawBufferPointer, layout: RecordLayout
    ) throws(JSONSyntaxError) -> [String]? {
        if layout == .document {
            var parser = JSONParser(bytes: prefix)
            guard parser.consume(UInt8(ascii: "[")) else { return nil }
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: "{") else { return nil }
            return try objectKeys(&parser)
        }
        guard let base = prefix.baseAddress else { return nil }
        var firstProblem: JSONSyntaxError?
        var lineStart = 0
        var line = 1
        while lineStart < prefix.count {
            let end =
                memchr(base + lineStart, 0x0A, prefix.count - lineStart).map { base.distance(to: $0) } ?? prefix.count
            var parser = JSONParser(bytes: UnsafeRawBufferPointer(rebasing: prefix[lineStart..<end]), line: line)
            parser.skipWhitespace()
            if parser.current == UInt8(ascii: "{") {
                do throws(JSONSyntaxError) {
                    let keys = try objectKeys(&parser)
                    parser.skipWhitespace()
                    guard parser.isAtEnd else { throw parser.error("unexpected text after the object") }
                    return keys
                } catch {
                    // The last line of the prefix may only be cut short.
                    if end == prefix.count { throw firstProblem ?? error }
                    if firstProblem == nil { firstProblem = error }
                }
            }
            lineStart = end + 1
            line += 1
        }
        if let firstProblem { throw firstProblem }
        return nil
    }

    /// The keys of the object at the parser, its values skipped as `scanValue` skips an
    /// unknown key's.
    private static func objectKeys(_ parser: inout JSONParser) throws(JSONSyntaxError) -> [String] {
        var keys: [String] = []
        _ = parser.consume(UInt8(ascii: "{"))
        if parser.consume(UInt8(ascii: "}")) { return keys }
        while true {
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: "\"") else { throw parser.error("expected a string key") }
            let keyStart = parser.index
            let (range, escaped) = try parser.scanString()
            if escaped {
                parser.rewind(to: keyStart)
                keys.append(try parser.parseString())
            } else {
                keys.append(
                    parser.withBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self) })
            }
            guard parser.consume(UInt8(ascii: ":")) else { throw parser.error("expected ':' after key") }
            parser.skipWhitespace()
            guard let byte = parser.current else { throw parser.error("unexpected end of input") }
            switch byte {
            case UInt8(ascii: "\""): _ = try parser.scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parser.scanNumber()
            case UInt8(ascii: "t"): try parser.literal("true")
            case UInt8(ascii: "f"): try parser.literal("false")
            case UInt8(ascii: "n"): try parser.literal("null")
            default: _ = try parser.parseValue(depth: 1)
            }
            if parser.consume(UInt8(ascii: ",")) { continue }
            if parser.consume(UInt8(ascii: "}")) { return keys }
            throw parser.error("expected ',' or '}' in object")
        }
    }
}

/// The reusable buffer a JSON record's values are copied into, and the row pointing at it.
private struct RecordScratch {
    var row: RawRow
    var seen: [Bool]
    /// The field of each key of the last object, by its place (-1: an unknown key).
    var keyOrder: [Int] = []
    private var buffer = GrowableBuffer<UInt8>(capacity: 4096)

    init(fieldCount: Int) {
        row = RawRow(fieldCount: fieldCount)
        seen = Array(repeating: false, count: fieldCount)
    }

    mutating func reset(line: Int) {
        buffer.removeAll()
        row.reset(line: line, base: UnsafeRawPointer(buffer.base))
        for index in seen.indices { seen[index] = false }
    }

    mutating func store(field: Int, _ bytes: UnsafeRawBufferPointer) {
        let start = buffer.count
        // One byte past the limit is enough to reject the row (`RawRow.maximumFieldBytes`).
        let count = min(bytes.count, RawRow.maximumFieldBytes + 1)
        if let base = bytes.baseAddress, count > 0 { buffer.append(base, count: count) }
        // Growing may move the buffer: the row always points at its current base.
        row.base = UnsafeRawPointer(buffer.base)
        row.set(field: field, column: 0, start: start, count: count)
    }

    func deallocate() {
        buffer.deallocate()
        row.deallocate()
    }
}

/// A sink that lets the first `skip` rows (accepted or rejected) go by: what a streamed array
/// handed on already, when a broken file is read again whole.
private struct SkippingSink<Sink: RowSink>: RowSink {
    var sink: Sink
    var skip: Int

    mutating func accept(_ row: RawRow) {
        guard skip == 0 else { return skip -= 1 }
        sink.accept(row)
    }

    mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
        guard skip == 0 else { return skip -= 1 }
        sink.reject(line: line, column: column, field: field, reason: reason)
    }
}
