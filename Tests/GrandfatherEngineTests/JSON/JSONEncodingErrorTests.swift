import Testing

@testable import GrandfatherEngine

/// Issue 51, item 16: a string that is not UTF-8 in a store's JSON record is named by the
/// innermost member that holds it, in the one text rule's words, so that the rejection says
/// which field was broken; any other error keeps its place and message.
struct JSONEncodingErrorTests {
    static func error(_ bytes: [UInt8]) -> JSONSyntaxError? {
        bytes.withUnsafeBytes { raw in
            if case .failure(let error) = JSONParser.parseDocument(raw, trailing: "after the record") { return error }
            return nil
        }
    }

    @Test func theInnermostMemberNamesABrokenString() throws {
        let nested = Array(#"{"outer": {"lineItems": [{"productId": "p"#.utf8) + [0xFF] + Array(#""}]}}"#.utf8)
        let error = try #require(Self.error(nested))
        #expect(error.key == "productId")
        #expect(error.namedEncodingProblem == "productId is not valid UTF-8")
        #expect(error.reason(at: "column 40") == "productId is not valid UTF-8 (at column 40)")
        // Escaped, the same: a lone surrogate is not UTF-8.
        let escaped = try #require(Self.error(Array(#"{"token": "a\ud800"}"#.utf8)))
        #expect(escaped.namedEncodingProblem == "token is not valid UTF-8")
    }

    @Test func otherErrorsAndUnnamedStringsKeepTheirMessage() throws {
        let syntax = try #require(Self.error(Array(#"{"token": tru}"#.utf8)))
        #expect(syntax.namedEncodingProblem == nil)
        #expect(syntax.reason(at: "column 11") == "malformed JSON at column 11: \(syntax.message)")
        // In an array at the top, no member holds the string.
        let bare = try #require(Self.error(Array(#"["a"#.utf8) + [0xFF] + Array(#""]"#.utf8)))
        #expect(bare.key == nil)
        #expect(bare.reason(at: "column 2") == "malformed JSON at column 2: a string is not valid UTF-8")
        // A key that would need quoting is not repeated in a reason.
        let odd = try #require(Self.error(Array(#"{"a b": "x"#.utf8) + [0xFF] + Array(#""}"#.utf8)))
        #expect(odd.namedEncodingProblem == nil)
    }
}
