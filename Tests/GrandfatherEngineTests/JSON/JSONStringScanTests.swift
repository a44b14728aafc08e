import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// `scanString` skips eight bytes at a time while none can end or escape the string: it finds
/// what a byte-by-byte scan finds, wherever the quote, backslash or control character falls.
struct JSONStringScanTests {
    /// The byte-by-byte reading: the closing quote's range and whether an escape came first,
    /// or nil for an error (a control character, or no closing quote).
    private static func reference(_ bytes: [UInt8]) -> (Range<Int>, Bool)? {
        var index = 1
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (1..<index, escaped) }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 2
                continue
            }
            if byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    @Test("the fast scan agrees with a byte-by-byte one on 20,000 strings")
    func agreesWithBytewise() {
        var generator = SplitMix(seed: 18)
        // Mostly plain bytes, the ones that matter sprinkled in, and bytes of 0x80 and more.
        let alphabet: [UInt8] =
            Array("abcdefgh0123456789 .:-".utf8) + [0x22, 0x5C, 0x1F, 0x00, 0x7F, 0x80, 0xC3, 0xFF, 0x20]
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 40)
            var bytes: [UInt8] = [UInt8(ascii: "\"")]
            for _ in 0..<length {
                let plain = generator.next() % 10 != 0
                let pick = Int(generator.next() % UInt64(plain ? 22 : alphabet.count))
                bytes.append(alphabet[pick])
            }
            if generator.next() % 4 != 0 { bytes.append(UInt8(ascii: "\"")) }
            let expected = Self.reference(bytes)
            let got = bytes.withUnsafeBytes { raw -> (Range<Int>, Bool)? in
                var parser = JSONParser(bytes: raw)
                do throws(JSONSyntaxError) {
                    let (range, escaped) = try parser.scanString()
                    return (range, escaped)
                } catch {
                    return nil
                }
            }
            #expect(got?.0 == expected?.0 && got?.1 == expected?.1, "\(bytes)")
        }
    }
}
