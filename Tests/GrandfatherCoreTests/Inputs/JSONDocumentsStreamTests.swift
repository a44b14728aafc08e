import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// `JSONDocuments.stream` (issue 51, item 5): a file's records handed on a piece at a time
/// are the records `read` gives of the whole file, line for line and rejection for rejection,
/// wherever the pieces are cut: JSON Lines, documents spread over lines, broken lines, blank
/// lines, a byte-order mark, and one array.
@Suite struct JSONDocumentsStreamTests {
    static func described(_ unit: JSONDocuments.Unit) -> String {
        switch unit {
        case .element(let value): "\(value.line) \(value.value) \(value.keys)"
        case .rejected(let line, let reason): "\(line) rejected: \(reason)"
        }
    }

    static func file(_ generator: inout SplitMix) -> String {
        var text = Int.random(in: 0..<5, using: &generator) == 0 ? "\u{FEFF}" : ""
        for index in 0..<Int.random(in: 1...40, using: &generator) {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: text += "\n"
            case 1: text += #"{"broken": "#
            case 2: text += "{\n  \"spread\": \(index),\n  \"over\": [1,\n 2]\n}"
            case 3: text += #"{"dup": 1, "dup": 2}"#
            default: text += #"{"customer_id": "c\#(index)", "n": \#(index), "nested": {"a": [\#(index)]}}"#
            }
            text += Int.random(in: 0..<6, using: &generator) == 0 ? "\r\n" : "\n"
        }
        return text
    }

    /// One JSON array: elements on one line or spread over lines, nested arrays and objects,
    /// strings with brackets, commas and escaped quotes, CR LF, and now and then a break (an
    /// element cut short, a trailing comma, text after the array, an object closed twice, a
    /// repeated key, no closing bracket).
    static func array(_ generator: inout SplitMix) -> String {
        var elements: [String] = []
        for index in 0..<Int.random(in: 0...30, using: &generator) {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: elements.append("{\n  \"spread\": \(index),\n  \"over\": [1,\n 2, {\"x\": [\"]\"]}]\n}")
            case 1: elements.append(#"{"text": "a, b ] } [ { \" \\", "n": \#(index)}"#)
            case 2: elements.append(#"[1, [2, [3]], "x"]"#)
            case 3: elements.append(#""plain""#)
            case 4: elements.append(#"{"dup": 1, "dup": 2}"#)
            default: elements.append(#"{"customer_id": "c\#(index)", "nested": {"a": [\#(index)]}}"#)
            }
        }
        let separator = [",", ", ", ",\n", ",\r\n  ", "\n,"][Int.random(in: 0..<5, using: &generator)]
        var text =
            (Int.random(in: 0..<5, using: &generator) == 0 ? "\u{FEFF}" : "") + " [\n"
            + elements.joined(separator: separator) + "\n]\n"
        switch Int.random(in: 0..<12, using: &generator) {
        case 0: text = text.replacingOccurrences(of: #""n": "#, with: #""n" "#)
        case 1: text = text.replacingOccurrences(of: "\n]\n", with: ",\n]\n")
        case 2: text += "{}\n"
        case 3: text = text.replacingOccurrences(of: "\n]\n", with: "\n")
        case 4: text = text.replacingOccurrences(of: "}}", with: "}}}")
        default: break
        }
        return text
    }

    /// Each text of `texts`, written to a file and streamed in pieces of each size of
    /// `pieces`, gives the units `read` gives of the whole file.
    static func expectStreamedIsWhole(_ texts: [String], pieces: [Int]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (round, text) in texts.enumerated() {
            let path = folder.appendingPathComponent("f\(round).json").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let whole = try JSONDocuments.read(at: path, what: "test").units.map(Self.described)
            for piece in pieces {
                var streamed: [String] = []
                _ = try JSONDocuments.stream(at: path, what: "test", piece: piece) {
                    streamed.append(Self.described($0))
                }
                #expect(streamed == whole, "round \(round), pieces of \(piece): \(text)")
            }
        }
    }

    @Test func anArrayStreamedGivesWhatTheWholeArrayGives() throws {
        var generator = SplitMix(seed: 5151)
        let texts = (0..<300).map { _ in Self.array(&generator) }
        try Self.expectStreamedIsWhole(texts, pieces: [1, 5, 16, 97, 1 << 20])
    }

    @Test func piecesGiveWhatTheWholeFileGives() throws {
        var generator = SplitMix(seed: 51)
        let texts = (0..<200).map { round in
            let text = Self.file(&generator)
            return round % 25 == 0 ? "[" + #"{"a": 1},"# + "\n" + #"{"b": 2}"# + "]\n" : text
        }
        try Self.expectStreamedIsWhole(texts, pieces: [1, 7, 16, 61, 1 << 20])
    }
}
