import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// A parser that remembers texts (`RecentTexts`) hands back a string it read before only when
/// the bytes are the same: over drawn records whose keys and values repeat, collide in the
/// table's slots and cross its length bounds, it builds the tree a parser without one builds.
struct RecentTextsTests {
    /// A text of `length` letters from a small alphabet: long ones repeat and share slots.
    private static func text(_ length: Int, using generator: inout SplitMix) -> String {
        let letters = Array("abAB01_-")
        return String((0..<length).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
    }

    @Test("remembering texts gives the same trees, for 2,000 drawn records")
    func sameTrees() throws {
        var generator = SplitMix(seed: 51)
        // Few enough distinct texts that most repeat, enough that slots are shared.
        let pool = (0..<600).map { index in
            Self.text([14, 15, 16, 17, 20, 33, 64, 65][index % 8], using: &generator)
        }
        var lines: [String] = []
        for _ in 0..<2_000 {
            let members = (0..<Int(1 + generator.next() % 6)).map { _ in
                let key = pool[Int(generator.next() % UInt64(pool.count))]
                let value = pool[Int(generator.next() % UInt64(pool.count))]
                return "\"\(key)\": \"\(value)\""
            }
            lines.append("{" + members.joined(separator: ", ") + "}")
        }
        let bytes = Array(lines.joined(separator: "\n").utf8)
        func parsed(remembering: Bool) throws -> [JSONValue] {
            let read = JSONParser.parsing(bytes) { parser -> Result<[JSONValue], JSONSyntaxError> in
                parser.remembersTexts = remembering
                var values: [JSONValue] = []
                do throws(JSONSyntaxError) {
                    parser.skipWhitespace()
                    while !parser.isAtEnd {
                        values.append(try parser.parseValue())
                        parser.skipWhitespace()
                    }
                } catch {
                    return .failure(error)
                }
                return .success(values)
            }
            return try read.get()
        }
        let plain = try parsed(remembering: false)
        let remembered = try parsed(remembering: true)
        #expect(plain.count == 2_000)
        // ASCII texts: equal strings are equal bytes.
        #expect(remembered == plain)
    }
}
