import CLibCSV
import Foundation
import Testing

@testable import GrandfatherEngine

/// Whenever `QuotedLineBreaks` says a chunk's fields hold no line break, none of the fields
/// libcsv delivers while parsing that chunk does, on random text made of the characters
/// that matter, cut into chunks anywhere.
@Suite struct QuotedLineBreaksTests {
    @Test func aChunkSaidToHoldNoBreakDeliversNoFieldWithOne() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab,\"\n\r".utf8)
        var saidNone = 0
        var quotedBreaks = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...32, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let cuts = [0, Int.random(in: 0...length, using: &generator), length].sorted()
            let chunks = [Array(text[cuts[0]..<cuts[1]]), Array(text[cuts[1]..<cuts[2]])]

            var mayOccur: [Bool] = []
            let collected = LibCSVEvents.parse(chunks) { raw, parser in
                mayOccur.append(
                    QuotedLineBreaks.mayOccur(
                        raw, startsInQuotes: CSVReader.insideQuotes(parser),
                        startsAtFieldStart: CSVReader.atFieldStart(parser)))
                return false
            }
            for (index, may) in mayOccur.enumerated() where !may {
                saidNone += 1
                for delivered in collected.fields where delivered.chunk == index {
                    let hasBreak = delivered.bytes.contains(0x0A) || delivered.bytes.contains(0x0D)
                    #expect(!hasBreak, "\(String(decoding: text, as: UTF8.self).debugDescription) cut at \(cuts[1])")
                    if hasBreak { return }
                }
            }
            if collected.fields.contains(where: { $0.bytes.contains(0x0A) || $0.bytes.contains(0x0D) }) {
                quotedBreaks += 1
            }
        }
        #expect(saidNone > 5_000, "the scan clears many chunks, not only empty ones")
        #expect(quotedBreaks > 1_000, "the text often puts line breaks inside quotes")
    }

    @Test func quotedCommasAreClearedAndQuotedBreaksAreNot() {
        let cleared = Array("t1,\"bundle, family\",x\nt2,\"say \"\"hi\"\"\",y\n".utf8)
        cleared.withUnsafeBytes { bytes in
            #expect(!QuotedLineBreaks.mayOccur(bytes, startsInQuotes: false, startsAtFieldStart: true))
        }
        for flagged in ["t1,\"a\nb\",x\n", "t1,\"a\r\nb\",x\n", "t1,\"a\"b\"\n", "t1,\"open"] {
            Array(flagged.utf8).withUnsafeBytes { bytes in
                #expect(QuotedLineBreaks.mayOccur(bytes, startsInQuotes: false, startsAtFieldStart: true), "\(flagged)")
            }
        }
        Array("plain,row\n".utf8).withUnsafeBytes { bytes in
            #expect(QuotedLineBreaks.mayOccur(bytes, startsInQuotes: true, startsAtFieldStart: false))
            #expect(QuotedLineBreaks.mayOccur(bytes, startsInQuotes: nil, startsAtFieldStart: false))
        }
    }
}
