import CLibCSV
import Foundation
import Testing

@testable import GrandfatherCore

/// Whenever `TrimSafety` lets a chunk go through libcsv's default space handling, the fields
/// are exactly those of never trimming, on random text made of the characters that matter.
@Suite struct TrimSafetyTests {
    /// Fields and record ends, as libcsv reports them.
    private final class Collected {
        var events: [String] = []
    }

    /// Parses `chunks` one after another, choosing the space function per chunk.
    private func parse(_ chunks: [[UInt8]], chooser: (UnsafeRawBufferPointer, csv_parser) -> Bool) -> [String] {
        var parser = csv_parser()
        _ = csv_init(&parser, UInt8(CSV_REPALL_NL))
        defer { csv_free(&parser) }
        let collected = Collected()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        let field: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
            data, length, context in
            guard let context else { return }
            let box = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            box.events.append("f:" + String(decoding: bytes, as: UTF8.self))
        }
        let record: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { terminator, context in
            guard let context else { return }
            Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().events.append("r:\(terminator)")
        }
        for chunk in chunks {
            chunk.withUnsafeBytes { raw in
                let useDefault = chooser(raw, parser)
                csv_set_space_func(&parser, useDefault ? nil : CSVReader.neverSpace)
                _ = csv_parse(&parser, raw.baseAddress, raw.count, field, record, context)
            }
        }
        csv_fini(&parser, field, record, context)
        return collected.events
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
