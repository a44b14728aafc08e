import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// `JSONReader` reads the flat lines of a JSON Lines file by hand (`FlatObjectReader`) and
/// gives every other line to its scanner. Whatever the bytes, that must deliver exactly what
/// the scanner alone delivers: the same rows with the same fields and lines, the same
/// rejections with the same wording, the same line count. The files mix flat lines with every
/// kind the flat reader must leave to the scanner, over several read chunks.
@Suite struct JSONDifferentialTests {
    private static let names = TransactionFields.names

    /// One value; with `flat`, only what a flat line may hold.
    private static func value(_ generator: inout SplitMix, flat: Bool) -> String {
        let plain = Array("abc019-_.: ,{}[]é")
        func text(_ length: ClosedRange<Int>) -> String {
            String(
                (0..<Int.random(in: length, using: &generator)).map { _ in
                    plain[Int.random(in: 0..<plain.count, using: &generator)]
                })
        }
        var choice = Int.random(in: 0..<1_000, using: &generator)
        if flat, (220..<285).contains(choice) || (291..<296).contains(choice) { choice = 999 }
        switch choice {
        case 0..<80: return "null"
        case 80..<120: return "\"\""
        case 120..<160: return pick(["true", "false"], &generator)
        case 160..<220: return pick(["0", "-12", "6.99", "1e5", "-0.5E-3", "120", "1709251200000"], &generator)
        // Malformed numbers and literals.
        case 220..<230: return pick(["01", "1.", "-", "1e", ".5", "+1", "0x1"], &generator)
        case 230..<240: return pick(["tru", "nulls", "False", "nul"], &generator)
        case 240..<255: return "\"a\\\"b\\\\c\\u00e9\\n\""  // escapes
        case 255..<260: return "\"tab\there\""  // a control byte in a string
        case 260..<275: return "{\"x\": [1, \"y\"]}"  // nested
        case 275..<285: return "[\"p\", 2]"
        case 285..<290: return "\"\u{7F}\u{FF}\""  // DEL and a non-ASCII scalar
        case 290: return "\"" + String(repeating: "y", count: Int.random(in: 60_000...70_000, using: &generator)) + "\""
        case 291..<296: return "\"unterminated"
        default: return "\"" + text(0...24) + "\""
        }
    }

    private static func pick(_ choices: [String], _ generator: inout SplitMix) -> String {
        choices[Int.random(in: 0..<choices.count, using: &generator)]
    }

    /// A key: mostly the kind's, sometimes unknown, escaped, or near a known name.
    private static func key(_ field: Int, _ generator: inout SplitMix, flat: Bool) -> String {
        switch Int.random(in: 0..<200, using: &generator) {
        case 3 where flat: return "\"customer\""
        case 0: return "\"note\""
        case 1: return "\"" + names[field].dropLast() + "\""  // a prefix of a name
        case 2: return "\"" + names[field] + "_\""  // a name and one byte more
        case 3: return "\"customer\\u005fid\""  // escaped
        case 4: return "\"" + String(repeating: "k", count: 40) + "\""  // longer than any name
        case 5: return "\"\""
        default: return "\"" + names[field] + "\""
        }
    }

    /// Space between tokens: mostly none or one space, sometimes a tab or a line break.
    private static func gap(_ generator: inout SplitMix, flat: Bool) -> String {
        switch Int.random(in: 0..<(flat ? 97 : 100), using: &generator) {
        case 0..<55: return ""
        case 55..<95: return " "
        case 95..<97: return "  "
        case 97: return "\t"
        case 98: return "\r"
        default: return " \t "
        }
    }

    /// A JSON Lines file of `lines` lines.
    private static func file(seed: UInt64, lines: Int) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        var text = ""
        let ends = ["\n", "\n", "\n", "\r\n", " \n", "\t\r\n"]
        for _ in 0..<lines {
            let end = ends[Int.random(in: 0..<ends.count, using: &generator)]
            switch Int.random(in: 0..<60, using: &generator) {
            case 0: text += end  // a blank line
            case 1: text += "  " + end
            case 2: text += "[\"c10\", \"ios\"]" + end  // not an object
            case 3: text += "{}" + end
            case 4: text += "{ }" + end
            case 5: text += "{\"customer_id\": \"c6\", \"platform\": \"ios\"," + end  // cut short
            default:
                // Two lines in three hold only what a flat line may; the third anything.
                let flat = Int.random(in: 0..<3, using: &generator) > 0
                var fields = Array(0..<names.count).shuffled(using: &generator)
                fields.removeLast(Int.random(in: 0..<4, using: &generator))
                if !flat, Int.random(in: 0..<10, using: &generator) == 0, let first = fields.first {
                    fields.append(first)  // a duplicate key
                }
                let members = fields.map { field in
                    key(field, &generator, flat: flat) + gap(&generator, flat: flat) + ":"
                        + gap(&generator, flat: flat) + value(&generator, flat: flat)
                }
                var line = gap(&generator, flat: flat) + "{" + gap(&generator, flat: flat)
                line += members.joined(separator: gap(&generator, flat: flat) + "," + gap(&generator, flat: flat))
                line += gap(&generator, flat: flat) + "}"
                if !flat, Int.random(in: 0..<30, using: &generator) == 0 { line += " x" }  // text after the object
                text += line + end
            }
        }
        if seed % 2 == 0 { text += "{\"transaction_id\": \"last\"}" }  // no line end
        return Array(text.utf8)
    }

    private static func read(_ path: String, flatLines: Bool) throws -> (events: [String], lines: Int, flat: Int) {
        let source = try ByteSource(path: path)
        var reader = JSONReader(fieldNames: TransactionFields.names)
        reader.readsFlatLines = flatLines
        var sink = RecordingSink(fieldCount: names.count)
        let summary = try reader.readLines(source, range: source.dataStart..<source.size, into: &sink)
        return (sink.events, summary.lineBreaks, summary.readFlat)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func flatLinesReadAsTheScannerReadsThem(seed: UInt64) throws {
        let bytes = Self.file(seed: seed, lines: 4_000)
        #expect(bytes.count > 3 * ByteSource.chunkSize)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("differential-\(UUID()).jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let scanner = try Self.read(path, flatLines: false)
        let both = try Self.read(path, flatLines: true)
        #expect(both.lines == scanner.lines)
        #expect(both.events.count == scanner.events.count)
        let first = zip(both.events, scanner.events).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            first == nil,
            "event \(first?.offset ?? 0): \(first?.element.0.prefix(300) ?? "") scanner: \(first?.element.1.prefix(300) ?? "")"
        )
        // The file really mixed rows, rejections and nested values.
        #expect(scanner.events.contains { $0.hasPrefix("row") })
        #expect(scanner.events.contains { $0.hasPrefix("reject") })
        #expect(scanner.events.contains { $0.contains("nested") })
        // About two lines in three were flat, and read by hand.
        #expect(scanner.flat == 0)
        #expect(both.flat > both.events.count / 2, "\(both.flat) of \(both.events.count) lines read flat")
    }

    /// Reads one line with the flat reader alone: its row's fields, or `nil` when it is not flat.
    private static func flat(_ line: String) throws -> [String?]? {
        let reader = try #require(FlatObjectReader(fieldNames: names.map { Array($0.utf8) }))
        var state = FlatObjectReader.State(fieldCount: names.count)
        defer { state.deallocate() }
        let bytes = Array(line.utf8) + [UInt8](repeating: 0x0A, count: FlatObjectReader.padding)
        return bytes.withUnsafeBytes { raw -> [String?]? in
            guard let base = raw.baseAddress,
                reader.read(base, from: 0, to: line.utf8.count, line: 7, state: &state)
            else { return nil }
            #expect(state.row.line == 7)
            return (0..<names.count).map {
                state.row.spans[$0].count == RawRow.Span.boolean ? "boolean" : state.row.text($0)
            }
        }
    }

    @Test("a flat line is read by hand, into fields that point at its own bytes")
    func flatLineFields() throws {
        #expect(
            try Self.flat(#"{"transaction_id":"t1","note":[],"customer_id":"c1"}"#) == nil,
            "an unknown key's nested value is the scanner's")
        let flat = try #require(
            try Self.flat(
                #"{"transaction_id":"t1", "price" : 6.99,"note":"x","customer_id":"c1","renewal_state":null,"#
                    + #""environment":true,"currency":"","product_id":"pro.é","expires_date":-1.5e-3}"# + "\r"))
        #expect(flat[TransactionFields.index("transaction_id")] == "t1")
        #expect(flat[TransactionFields.index("price")] == "6.99")
        #expect(flat[TransactionFields.index("customer_id")] == "c1")
        #expect(flat[TransactionFields.index("renewal_state")] == nil)
        #expect(flat[TransactionFields.index("environment")] == "boolean", "no field of SPEC §2 is a boolean")
        #expect(flat[TransactionFields.index("currency")] == nil)
        #expect(flat[TransactionFields.index("product_id")] == "pro.é")
        #expect(flat[TransactionFields.index("expires_date")] == "-1.5e-3")
        #expect(flat[TransactionFields.index("product_type")] == nil)
    }

    @Test(
        "escapes, nested values, tabs, duplicates and syntax errors are the scanner's",
        arguments: [
            #"{"transaction_id":"t\"1"}"#, #"{"transaction_id":{"a":1}}"#, #"{"transaction_id":[1]}"#,
            "{\"transaction_id\":\t\"t1\"}", #"{"transaction_id":"t1","transaction_id":"t2"}"#,
            #"{"transaction_id":"t1",}"#, #"{"transaction_id":"t1"} x"#, #"{"transaction_id":01}"#,
            #"{"transaction_id":nul}"#, #"{"transaction_id":"t1""#, "{\"transaction_id\":\"t\u{01}\"}", "",
            "   ", "[1]", #"{"transaction_id" "t1"}"#, #"{"trans\u0061ction_id":"t1"}"#, "{}",
        ])
    func linesLeftToTheScanner(line: String) throws {
        #expect(try Self.flat(line) == nil)
    }
}
