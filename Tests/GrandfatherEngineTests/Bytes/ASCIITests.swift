import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// `ASCII.isPlain` reads a field a word at a time, its last word overlapping the one before
/// (a field shorter than a word one byte at a time): it must answer as a byte-by-byte check
/// does, at every length and wherever the odd byte is.
@Suite struct ASCIITests {
    @Test func isPlainAgreesWithAByteByByteCheck() {
        var generator = SplitMix(seed: 7)
        // Plain bytes, the edges of plain (32, 126) and what is not plain (0, 1, 31, 127, 128, 255).
        let choices: [UInt8] = [0x61, 0x30, 0x20, 0x7E, 0x01, 0x1F, 0x7F, 0x00, 0x80, 0xFF]
        var notPlain = 0
        for length in 0...40 {
            for _ in 0..<200 {
                // Mostly plain, so a single odd byte at any place is tried often.
                let bytes = (0..<length).map { _ in
                    Int.random(in: 0..<8, using: &generator) == 0
                        ? choices[Int.random(in: 0..<choices.count, using: &generator)] : 0x61
                }
                let expected = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                if !expected { notPlain += 1 }
                // One byte of offset, so the words are read unaligned too.
                let padded = [0x61] + bytes
                let plain = padded.withUnsafeBytes { ASCII.isPlain(UnsafeRawBufferPointer(rebasing: $0.dropFirst())) }
                #expect(plain == expected, "\(bytes)")
            }
        }
        #expect(notPlain > 1_000)
    }

    /// Every byte value, alone among plain bytes, at every place of every length up to three
    /// words: the one test of a word must refuse exactly the bytes outside 32…126.
    @Test func everyByteIsJudgedAloneAtEveryPlace() {
        for length in 1...24 {
            for place in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: 0x7E, count: length)
                    bytes[place] = UInt8(value)
                    let plain = bytes.withUnsafeBytes { ASCII.isPlain($0) }
                    #expect(plain == (value >= 0x20 && value < 0x7F), "\(value) at \(place) of \(length)")
                }
            }
        }
    }

    @Test func lineFeedsAreCountedAsAByteByByteCountCountsThem() {
        var generator = SplitMix(seed: 11)
        for length in 0...300 {
            let bytes = (0..<length).map { _ in
                [0x0A, 0x0D, 0x61, 0x00][Int.random(in: 0..<4, using: &generator)] as UInt8
            }
            let counted = bytes.withUnsafeBytes(ASCII.lineFeeds)
            #expect(counted == bytes.filter { $0 == 0x0A }.count, "\(bytes)")
        }
        #expect([UInt8]().withUnsafeBytes(ASCII.lineFeeds) == 0)
        #expect(Array("a\n\nb\n".utf8).withUnsafeBytes(ASCII.lineFeeds) == 3)
    }
}
