import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// `JSONReader.readArray` streams a canonical JSON array a piece at a time: its rows and
/// rejections, with their lines, are what reading the whole file gives (`readWholeArray`), for
/// arrays well formed or broken anywhere, in pieces of one byte up.
struct JSONArrayStreamingTests {
    private struct Described: RowSink {
        let fields: Int
        var rows: [String] = []

        mutating func accept(_ row: RawRow) {
            let texts = (0..<fields).map { row.text($0) ?? "-" }
            rows.append("A \(row.line) \(texts)")
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            rows.append("R \(line) \(column.map(String.init) ?? "") \(field ?? "") \(reason)")
        }
    }

    private static let names = ["a", "b", "c"]

    private static func value(_ random: inout SplitMix) -> String {
        switch random.next() % 8 {
        case 0: return #""x\"y\\z""#
        case 1: return "12.50"
        case 2: return "true"
        case 3: return "null"
        case 4: return #"{"n": [1, {"m": "]"}]}"#
        case 5: return #""line,with]commas}""#
        case 6: return "\"\u{e9}t\u{e9}\""
        default: return "\"v\(random.next() % 100)\""
        }
    }

    private static func element(_ random: inout SplitMix) -> String {
        switch random.next() % 10 {
        case 0: return "\(random.next() % 5)"
        case 1: return #"["not", "an", "object"]"#
        default:
            let count = Int(random.next() % 4)
            let members = (0..<count).map { _ in
                let key = random.next() % 5 == 0 ? "other" : names[Int(random.next() % 3)]
                let gap = random.next() % 4 == 0 ? "\n  " : " "
                return "\"\(key)\":\(gap)\(value(&random))"
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    private static func file(_ random: inout SplitMix) -> String {
        let elements = (0..<Int(random.next() % 12)).map { _ in element(&random) }
        var text = (random.next() % 6 == 0 ? "\u{FEFF}" : "") + "[\n" + elements.joined(separator: ",\n") + "\n]\n"
        switch random.next() % 8 {
        case 0: text += "trailing"
        case 1: text = String(text.dropLast(2))
        case 2:
            if let comma = text.firstIndex(of: ",") { text.insert(contentsOf: ",,", at: comma) }
        case 3: text = text.replacingOccurrences(of: ":", with: "", options: [], range: nil)
        case 4: text = text.replacingOccurrences(of: "} x", with: "}")
        default: break
        }
        return text
    }

    @Test func streamedArraysGiveWhatTheWholeArrayGives() throws {
        var seeds = SystemRandomNumberGenerator()
        let seed = seeds.next()
        var random = SplitMix(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrays-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = JSONReader(fieldNames: Self.names)
        var broken = 0
        for round in 0..<300 {
            let text = Self.file(&random)
            let path = folder.appendingPathComponent("f\(round).json").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let source = try ByteSource(path: path)
            var whole = Described(fields: Self.names.count)
            try reader.readWholeArray(source, into: &whole)
            if whole.rows.last?.contains("malformed") == true || whole.rows.last?.contains("after the") == true {
                broken += 1
            }
            for piece in [1, 3, 16, 1 << 20] {
                var streamed = Described(fields: Self.names.count)
                try reader.readArray(source, into: &streamed, piece: piece)
                #expect(streamed.rows == whole.rows, "seed \(seed), round \(round), pieces of \(piece): \(text)")
            }
        }
        #expect(broken > 20, "seed \(seed): the draws should break some arrays")
    }
}
