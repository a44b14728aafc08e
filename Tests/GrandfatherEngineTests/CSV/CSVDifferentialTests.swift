import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// `CSVReader` reads the lines libcsv can read only one way by hand (`PlainLineReader`) and
/// gives every other line to libcsv. Whatever the bytes, that must deliver exactly what libcsv
/// alone delivers: the same rows with the same fields, columns and lines, the same rejections,
/// the same line count. The files mix plain lines with every kind the plain reader must leave
/// to libcsv, over several read chunks, with LF, CRLF and CR line ends.
@Suite struct CSVDifferentialTests {
    /// One field's text, plain or not.
    private static func field(_ generator: inout SplitMix) -> String {
        let plain = Array("abc019-_.: ")
        func text(_ length: ClosedRange<Int>) -> String {
            String(
                (0..<Int.random(in: length, using: &generator)).map { _ in
                    plain[Int.random(in: 0..<plain.count, using: &generator)]
                })
        }
        switch Int.random(in: 0..<1_000, using: &generator) {
        case 0..<100: return ""
        case 100..<150: return "\"" + text(0...12) + "\""  // plain quoted
        case 150..<170: return "\"a,b\"\"c\"\"\""  // doubled quotes: plain only in an unknown column
        case 170..<180: return "ab\"cd"  // a quote inside unquoted text
        case 180..<190: return "\"ab\"cd"  // text after a closing quote
        case 190..<200: return "\"one\ntwo\""  // quoted line break
        case 200..<205: return "\"one\r\ntwo\rthree\""
        case 205..<215: return " " + text(1...3) + " "  // blanks at the edges: never trimmed
        case 215: return String(repeating: "y", count: Int.random(in: 60_000...70_000, using: &generator))
        default: return text(1...20)
        }
    }

    /// A file of `lines` lines; with `;` between fields, the fields' commas are plain text.
    private static func file(
        seed: UInt64, lines: Int, unknownColumns: Bool, delimiter: String
    ) -> (header: [String], bytes: [UInt8]) {
        var generator = SplitMix(seed: seed)
        var header = TransactionFields.names
        if unknownColumns { header.insert(contentsOf: ["note", "extra"], at: 3) }
        var text = header.joined(separator: delimiter) + "\n"
        let ends = ["\n", "\n", "\n", "\r\n", "\r"]
        for _ in 0..<lines {
            switch Int.random(in: 0..<50, using: &generator) {
            case 0: text += ends[Int.random(in: 0..<ends.count, using: &generator)]  // a blank line
            case 1:
                // Too few fields.
                text += "a" + delimiter + "b" + ends[Int.random(in: 0..<ends.count, using: &generator)]
            default:
                var count = header.count
                if Int.random(in: 0..<40, using: &generator) == 0 { count += 1 }
                text += (0..<count).map { _ in field(&generator) }.joined(separator: delimiter)
                text += ends[Int.random(in: 0..<ends.count, using: &generator)]
            }
        }
        // Sometimes the last line has no line end, or a quote that never closes.
        if seed % 2 == 0 { text += "last" + delimiter + "line" }
        if seed % 3 == 0 { text += "x" + delimiter + "\"never closed,\n" }
        return (header, Array(text.utf8))
    }

    /// What a reader delivered, its line count, and how many records the hand reader read.
    private typealias Read = (events: [String], lines: Int, byHand: Int)

    private static func read(
        _ path: String, header: [String], delimiter: UInt8 = CSVReader.comma, plainLines: Bool
    ) throws -> Read {
        let source = try ByteSource(path: path)
        var reader = CSVReader(
            header: header, fieldNames: TransactionFields.names, delimiter: delimiter)
        reader.readsPlainLines = plainLines
        var sink = RecordingSink(fieldCount: TransactionFields.names.count)
        let summary = try reader.read(source, range: source.dataStart..<source.size, isFirst: true, into: &sink)
        return (sink.events, summary.lineBreaks, summary.readByHand)
    }

    /// `text` written to a temporary file and read with libcsv alone, then with the hand reader.
    private static func readBothWays(_ text: String, header: [String]) throws -> (libcsv: Read, both: Read) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("both-\(UUID()).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return (try read(path, header: header, plainLines: false), try read(path, header: header, plainLines: true))
    }

    @Test(arguments: [
        (1, false, ","), (2, true, ","), (3, true, ","), (4, false, ","), (5, true, ";"), (6, false, ";"),
    ])
    func plainLinesReadAsLibCSVReadsThem(seed: UInt64, unknownColumns: Bool, delimiter: String) throws {
        let (header, bytes) = Self.file(
            seed: seed, lines: 6_000, unknownColumns: unknownColumns, delimiter: delimiter)
        let byte = Array(delimiter.utf8)[0]
        #expect(bytes.count > 3 * ByteSource.chunkSize)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("differential-\(UUID()).csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let libcsv = try Self.read(path, header: header, delimiter: byte, plainLines: false)
        let both = try Self.read(path, header: header, delimiter: byte, plainLines: true)
        #expect(both.lines == libcsv.lines)
        #expect(both.events.count == libcsv.events.count)
        let first = zip(both.events, libcsv.events).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            first == nil,
            "event \(first?.offset ?? 0): \(first?.element.0.prefix(300) ?? "") libcsv: \(first?.element.1.prefix(300) ?? "")"
        )
        // The file really mixed both kinds of line.
        #expect(libcsv.events.contains { $0.hasPrefix("row") })
        #expect(libcsv.events.contains { $0.hasPrefix("reject") })
    }

    /// Inside a quoted field libcsv began, libcsv reads on to the line of the next quote rather
    /// than a line at a time; the field must be the one libcsv alone reads, with every line
    /// counted, and the hand reader takes up the line after it.
    @Test("a quoted field over 300,000 lines is read as libcsv reads it, in one pass")
    func longQuotedFieldOverManyLines() throws {
        let names = TransactionFields.names
        let plainRow = names.map { _ in "x" }.joined(separator: ",") + "\n"
        let field = "\"" + String(repeating: "q,\n", count: 300_000) + "\""
        let text =
            names.joined(separator: ",") + "\n" + plainRow + field + String(repeating: ",x", count: names.count - 1)
            + "\n" + plainRow
        let (libcsv, both) = try Self.readBothWays(text, header: names)
        #expect(both.events == libcsv.events)
        #expect(both.lines == libcsv.lines)
        #expect(both.lines == 300_004)
        #expect(both.events.count == 3)
        #expect(both.byHand == 3, "the header and both plain rows")
    }

    /// A line cut by a read chunk's end is libcsv's to finish, and only that line: the hand
    /// reader takes up the next one. (Once libcsv read every later chunk to its end, and the
    /// differential tests could not see it: the rows were the same, only slower.)
    @Test("after a line a chunk's end cuts, the hand reader reads on")
    func handReaderResumesAfterChunkEnds() throws {
        let names = TransactionFields.names
        var text = names.joined(separator: ",") + "\n"
        var rows = 0
        while text.utf8.count < 6 * ByteSource.chunkSize {
            text += names.enumerated().map { "v\($0.offset)-\(rows % 977)" }.joined(separator: ",") + "\n"
            rows += 1
        }
        let (libcsv, both) = try Self.readBothWays(text, header: names)
        #expect(both.events == libcsv.events)
        #expect(libcsv.byHand == 0)
        // Each of the six chunk ends leaves at most its cut line to libcsv.
        #expect(both.byHand >= rows + 1 - 6, "\(both.byHand) of \(rows + 1) records read by hand")
    }

    @Test("an unquoted quote, a quoted line break or a doubled quote in a kept column is libcsv's to read")
    func linesLeftToLibCSV() throws {
        let names = TransactionFields.names
        let row = { (first: String) in ([first] + names.dropFirst().map { _ in "x" }).joined(separator: ",") }
        let text =
            names.joined(separator: ",") + "\n" + row("a\"b") + "\n" + row("\"c\nd\"") + "\r\n"
            + row("\"e\"\"f\"") + "\r" + row("g") + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("left-\(UUID()).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try Self.read(path, header: names, plainLines: true)
        let first = TransactionFields.names.count  // the sink lists fields in kind order
        #expect(first == names.count)
        #expect(read.events.count == 4)
        #expect(read.events[0].hasPrefix("row 2 1:\(Array("a\"b".utf8))"))
        #expect(read.events[1].hasPrefix("row 3 1:\(Array("c\nd".utf8))"))
        #expect(read.events[2].hasPrefix("row 5 1:\(Array("e\"f".utf8))"))
        #expect(read.events[3].hasPrefix("row 6 1:\(Array("g".utf8))"))
        #expect(read.lines == 6)
    }
}
