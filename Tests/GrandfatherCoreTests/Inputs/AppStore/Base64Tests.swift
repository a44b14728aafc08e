import Foundation
import Testing

@testable import GrandfatherCore

/// The hand-written base64 decoder against Foundation's, on the same inputs.
@Suite struct Base64Tests {
    @Test func decodesWhatFoundationEncodesForEveryLengthUpTo100() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            #expect(Base64.decode(standard.utf8, alphabet: .standard) == bytes, "length \(length)")
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            #expect(Base64.decode(url.utf8, alphabet: .url) == bytes, "url, length \(length)")
            let unpadded = url.replacingOccurrences(of: "=", with: "")
            #expect(Base64.decode(unpadded.utf8, alphabet: .url) == bytes, "unpadded, length \(length)")
        }
    }

    @Test(arguments: ["a", "abcde", "ab=c", "ab===", "a-b+", "ab cd", "abc\u{0}", "====", "ab=", "abc=="])
    func refusesWhatIsNotBase64(_ text: String) {
        #expect(Base64.decode(text.utf8, alphabet: .url) == nil || text == "a-b+")
        #expect(Base64.decode(text.utf8, alphabet: .standard) == nil)
    }
}
