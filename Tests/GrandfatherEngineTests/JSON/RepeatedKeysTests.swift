import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// A parser that finds repeated keys as objects close (`JSONParser.findsRepeatedKeys`) names
/// the member a walk of the finished tree names (`JSONValue.firstRepeatedKey`): over drawn
/// values whose objects nest in objects and arrays, small and past the pairwise limit, with
/// repeats at any depth or none.
struct RepeatedKeysTests {
    /// A drawn value of at most `depth` levels, its keys from a few letters so that they repeat.
    private static func value(_ depth: Int, using generator: inout SplitMix) -> String {
        let draw = generator.next() % 8
        if depth == 0 || draw < 3 { return ["1", "\"x\"", "true", "null"][Int(draw % 4)] }
        if draw == 3 {
            let elements = (0..<Int(generator.next() % 4)).map { _ in value(depth - 1, using: &generator) }
            return "[" + elements.joined(separator: ",") + "]"
        }
        // Mostly a handful of members; now and then more than the pairwise limit of 16.
        let count = generator.next() % 6 == 0 ? 17 + Int(generator.next() % 8) : Int(generator.next() % 5)
        // Keys from a wide set for the big objects (a repeat is then rarer), a narrow one otherwise.
        let letters = count > 16 ? 40 : 7
        let members = (0..<count).map { _ in
            "\"k\(generator.next() % UInt64(letters))\":\(value(depth - 1, using: &generator))"
        }
        // Members on lines of their own now and then, so places differ by line as well as column.
        return "{" + members.joined(separator: generator.next() % 2 == 0 ? "," : ",\n") + "}"
    }

    @Test("the parser's first repeated key is the tree walk's, for 3,000 drawn values")
    func sameAsTheTreeWalk() throws {
        var generator = SplitMix(seed: 2051)
        var repeated = 0
        for _ in 0..<3_000 {
            let bytes = Array(Self.value(4, using: &generator).utf8)
            let (value, found) = try JSONParser.parsing(bytes) {
                parser -> Result<(JSONValue, JSONMember?), JSONSyntaxError> in
                parser.findsRepeatedKeys = true
                do throws(JSONSyntaxError) {
                    let value = try parser.parseValue()
                    return .success((value, parser.firstRepeatedKey))
                } catch {
                    return .failure(error)
                }
            }.get()
            let walked = value.firstRepeatedKey
            #expect(found == walked, "\(String(decoding: bytes, as: UTF8.self))")
            if walked != nil { repeated += 1 }
        }
        // Both kinds are drawn often: values with a repeat and values without.
        #expect(repeated > 300)
        #expect(repeated < 2_700)
    }

    @Test func aParserNotAskedFindsNothing() throws {
        let found = JSONParser.parsing(Array(#"{"a":1,"a":2}"#.utf8)) { parser in
            _ = try? parser.parseValue()
            return parser.firstRepeatedKey
        }
        #expect(found == nil)
    }
}
