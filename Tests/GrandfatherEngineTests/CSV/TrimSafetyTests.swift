import CLibCSV
import Foundation
import Testing

@testable import GrandfatherEngine

/// Whenever `TrimSafety` lets a chunk go through libcsv's default space handling, the fields
/// are exactly those of never trimming, on random text made of the characters that matter.
@Suite struct TrimSafetyTests {
    /// Fields and record ends, as libcsv reports them, choosing the space function per chunk.
    private func parse(_ chunks: [[UInt8]], chooser: (UnsafeRawBufferPointer, csv_parser) -> Bool)
        -> [LibCSVEvents.Event]
    {
        LibCSVEvents.parse(chunks, beforeChunk: chooser).events.map(\.event)
    }

    @Test func theDefaultIsChosenOnlyWhereItTrimsNothing() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab, \t\"\n\r".utf8)
        var chosen = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let cut = Int.random(in: 0...length, using: &generator)
            let chunks = [Array(text[..<cut]), Array(text[cut...])]
            let never = parse(chunks) { _, _ in false }
            let mixed = parse(chunks) { bytes, parser in
                let safe = TrimSafety.defaultIsSafe(
                    bytes, startsInQuotes: CSVReader.insideQuotes(parser),
                    startsAtFieldStart: CSVReader.atFieldStart(parser))
                if safe { chosen += 1 }
                return safe
            }
            #expect(mixed == never, "\(String(decoding: text, as: UTF8.self).debugDescription) cut at \(cut)")
            if mixed != never { return }
        }
        #expect(chosen > 5_000, "the scan lets through most chunks, not only empty ones")
    }

    @Test func quotedCommasAndSpacesBetweenWordsAreSafe() {
        let text = Array("t1,\"bundle, family\",a b\nt2,x,\"say \"\"hi\"\" there\"\n".utf8)
        text.withUnsafeBytes { bytes in
            #expect(TrimSafety.defaultIsSafe(bytes, startsInQuotes: false, startsAtFieldStart: true))
        }
        for unsafe in ["a, b\n", "a ,b\n", " a\n", "a \n", "\"a\" ,b\n", "a, \"b\"\n"] {
            Array(unsafe.utf8).withUnsafeBytes { bytes in
                #expect(!TrimSafety.defaultIsSafe(bytes, startsInQuotes: false, startsAtFieldStart: true), "\(unsafe)")
            }
        }
    }
}
