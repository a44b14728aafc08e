/// Reads JSON records (SPEC §2, §8.3): a top-level array of objects, read whole, or JSON
/// Lines, streamed. Each object becomes a `RawRow`: strings as their text, numbers as
/// their literal text, booleans as "true"/"false", null as absent, and an object or
/// array in a known field marked nested so that the row is rejected.
struct JSONReader {
    private let fieldIndex: [String: Int]
    private let fieldCount: Int

    /// Prepares to read records of `kind`.
    init(kind: RecordKind) {
        let names = kind.fieldNames
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() { index[name] = position }
        self.fieldIndex = index
        self.fieldCount = names.count
    }

    /// Streams a JSON Lines file: one object a line, blank lines skipped.
    func readLines<Sink: RowSink>(_ file: InputFile, into sink: inout Sink) throws(GrandfatherError) {
        var chunk: [UInt8] = []
        var pending: [UInt8] = []
        var line = 1
        var row = RawRow(fieldCount: fieldCount)
        var firstChunk = true
        while case let count = try file.read(into: &chunk), count > 0 {
            var start = 0
            if firstChunk, count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { start = 3 }
            firstChunk = false
            var lineStart = start
            for index in start..<count where chunk[index] == 0x0A {
                if pending.isEmpty {
                    chunk.withUnsafeBytes { raw in
                        readLine(
                            UnsafeRawBufferPointer(rebasing: raw[lineStart..<index]), line: line, row: &row, into: &sink
                        )
                    }
                } else {
                    pending.append(contentsOf: chunk[lineStart..<index])
                    pending.withUnsafeBytes { readLine($0, line: line, row: &row, into: &sink) }
                    pending.removeAll(keepingCapacity: false)
                }
                line += 1
                lineStart = index + 1
            }
            pending.append(contentsOf: chunk[lineStart..<count])
        }
        if !pending.isEmpty {
            pending.withUnsafeBytes { readLine($0, line: line, row: &row, into: &sink) }
        }
    }

    private func readLine<Sink: RowSink>(
        _ bytes: UnsafeRawBufferPointer, line: Int, row: inout RawRow, into sink: inout Sink
    ) {
        var parser = JSONParser(bytes: bytes, line: line)
        parser.skipWhitespace()
        if parser.isAtEnd { return }
        do throws(JSONSyntaxError) {
            guard parser.current == UInt8(ascii: "{") else {
                sink.reject(line: line, column: nil, field: nil, reason: "not a JSON object")
                return
            }
            let value = try parser.parseValue()
            parser.skipWhitespace()
            guard parser.isAtEnd else { throw parser.error("unexpected text after the object") }
            emit(value, line: line, row: &row, into: &sink)
        } catch {
            sink.reject(
                line: line, column: nil, field: nil,
                reason: "malformed JSON at column \(error.column): \(error.message)")
        }
    }

    /// Reads a whole JSON array file; a syntax error makes the rest of the file one rejected row.
    func readArray<Sink: RowSink>(_ file: InputFile, into sink: inout Sink) throws(GrandfatherError) {
        let all = try file.readAll()
        var row = RawRow(fieldCount: fieldCount)
        all.withUnsafeBytes { raw in
            var start = 0
            if raw.count >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF { start = 3 }
            var parser = JSONParser(bytes: raw, start: start)
            guard parser.consume(UInt8(ascii: "[")) else { return }
            if parser.consume(UInt8(ascii: "]")) {
                trailing(&parser, into: &sink)
                return
            }
            while true {
                parser.skipWhitespace()
                let line = parser.line
                do throws(JSONSyntaxError) {
                    let isObject = parser.current == UInt8(ascii: "{")
                    let value = try parser.parseValue()
                    if isObject {
                        emit(value, line: line, row: &row, into: &sink)
                    } else {
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

    private func emit<Sink: RowSink>(_ value: JSONValue, line: Int, row: inout RawRow, into sink: inout Sink) {
        guard let members = value.members else { return }
        row.reset(line: line)
        var seen = Set<Int>()
        for member in members {
            guard let field = fieldIndex[member.key] else { continue }
            guard seen.insert(field).inserted else {
                sink.reject(line: line, column: nil, field: member.key, reason: "duplicate key \(member.key)")
                return
            }
            switch member.value {
            case .string(let text):
                var copy = text
                copy.withUTF8 { row.set(field: field, column: 0, bytes: UnsafeRawBufferPointer($0)) }
            case .number(let literal):
                var copy = literal
                copy.withUTF8 { row.set(field: field, column: 0, bytes: UnsafeRawBufferPointer($0)) }
            case .bool(let flag):
                var copy = flag ? "true" : "false"
                copy.withUTF8 { row.set(field: field, column: 0, bytes: UnsafeRawBufferPointer($0)) }
            case .null:
                continue
            case .object, .array:
                row.setNested(field: field)
            }
        }
        sink.accept(row)
    }

    /// The keys of the first object in a JSON array or JSON Lines file, for recognition.
    static func firstObjectKeys(_ prefix: UnsafeRawBufferPointer, format: InputFormat) -> [String]? {
        var parser = JSONParser(bytes: prefix)
        if format == .jsonArray {
            guard parser.consume(UInt8(ascii: "[")) else { return nil }
        }
        parser.skipWhitespace()
        guard parser.current == UInt8(ascii: "{"), let value = try? parser.parseValue(), let members = value.members
        else { return nil }
        return members.map(\.key)
    }
}
