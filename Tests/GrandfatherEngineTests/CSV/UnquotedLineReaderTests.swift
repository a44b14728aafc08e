import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// `UnquotedLineReader` (issue 51, item 4): text with no quoting. On bytes that hold no quote it
/// delivers what libcsv delivers, row for row, over chunk boundaries and every line end; with
/// quotes, a quote is a character and no line is lost to it.
@Suite struct UnquotedLineReaderTests {
    static let names = TransactionFields.names

    static func events(_ text: String, quoted: Bool) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unquoted-\(UUID()).tsv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let source = try ByteSource(path: path)
        var sink = RecordingSink(fieldCount: names.count)
        if quoted {
            let reader = CSVReader(header: names, fieldNames: names, delimiter: UInt8(ascii: "\t"))
            _ = try reader.read(source, range: source.dataStart..<source.size, isFirst: true, into: &sink)
        } else {
            let reader = UnquotedLineReader(header: names, fieldNames: names, delimiter: UInt8(ascii: "\t"))
            try reader.read(source, into: &sink)
        }
        return sink.events
    }

    @Test func withoutQuotesItReadsAsLibcsvDoes() throws {
        let ends = ["\n", "\r\n", "\r"]
        for seed in 0..<12 {
            var generator = SplitMix(seed: UInt64(seed))
            var text = (seed % 3 == 0 ? "\u{FEFF}" : "") + Self.names.joined(separator: "\t") + ends[seed % 3]
            // Enough lines to cross several read chunks, some far longer than a chunk.
            for _ in 0..<(seed < 6 ? 3_000 : 60) {
                let end = ends[Int.random(in: 0..<3, using: &generator)]
                switch Int.random(in: 0..<40, using: &generator) {
                case 0: text += end
                case 1: text += "a\tb" + end
                case 2:
                    text +=
                        String(repeating: "z", count: 300_000) + String(repeating: "\t", count: Self.names.count - 1)
                        + end
                default:
                    text +=
                        Self.names.indices.map { _ in
                            String(repeating: "x", count: Int.random(in: 0...30, using: &generator))
                        }
                        .joined(separator: "\t") + end
                }
            }
            if seed % 2 == 1 { text += "no\tline\tend" }
            #expect(try Self.events(text, quoted: false) == Self.events(text, quoted: true), "seed \(seed)")
        }
    }

    @Test func aQuoteIsACharacterAndLosesNoLine() throws {
        let row = { (first: String) in ([first] + Self.names.dropFirst().map { _ in "v" }).joined(separator: "\t") }
        let text =
            Self.names.joined(separator: "\t") + "\n" + row("\"Maps") + "\n" + row("b\"\"") + "\r\n" + row("c") + "\n"
        let events = try Self.events(text, quoted: false)
        #expect(events.count == 3)
        #expect(events.allSatisfy { $0.hasPrefix("row ") })
        #expect(events[0].hasPrefix("row 2 1:\(Array("\"Maps".utf8))"))
        #expect(events[2].hasPrefix("row 4 "))
        // Read as CSV, the first quote runs to the end of the file.
        #expect(try Self.events(text, quoted: true).count == 1)
    }
}
