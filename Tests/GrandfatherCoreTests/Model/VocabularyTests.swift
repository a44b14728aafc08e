import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §8.4: closed vocabularies are read case-insensitively, and nothing else is read as one
/// of their values.
@Suite struct VocabularyTests {
    static func parse<Value: Vocabulary>(_ text: String, as type: Value.Type) -> Value? {
        Array(text.utf8).withUnsafeBytes { Value.parse(caseInsensitive: $0) }
    }

    /// Every spelling in lower, upper and mixed case; every near miss refused.
    static func check<Value: Vocabulary & Equatable>(_ type: Value.Type) {
        for value in Value.allCases {
            let text = value.rawValue
            let mixed = String(
                text.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
            for spelling in [text, text.uppercased(), mixed] {
                #expect(parse(spelling, as: type) == value, "\(spelling)")
            }
            var nearMisses = [text + "s", String(text.dropLast()), " " + text, text + "\u{0}", "é" + text.dropFirst()]
            for place in 0..<text.utf8.count {
                // Each byte changed to its neighbours and to a byte that is not ASCII.
                for change: UInt8 in [1, 0x80] {
                    var bytes = Array(text.utf8)
                    bytes[place] ^= change
                    nearMisses.append(String(decoding: bytes, as: UTF8.self))
                }
            }
            for miss in nearMisses where miss.lowercased() != text {
                #expect(parse(miss, as: type) == nil, "\(miss.debugDescription) read as \(value)")
            }
        }
        #expect(parse("", as: type) == nil)
        #expect(parse(String(repeating: "a", count: 40), as: type) == nil)
    }

    @Test func everyVocabulary() {
        Self.check(Platform.self)
        Self.check(Environment.self)
        Self.check(ProductType.self)
        Self.check(OwnershipType.self)
        Self.check(RenewalState.self)
    }

    /// Letters next to `A`–`Z` (`@`, `[`, `` ` ``, `{`) must not be folded onto letters.
    @Test func onlyLettersAreFolded() {
        #expect(Self.parse("IOS", as: Platform.self) == .ios)
        #expect(Self.parse("i@s", as: Platform.self) == nil)
        #expect(Self.parse("[os", as: Platform.self) == nil)
        #expect(Self.parse("ios\u{7F}", as: Platform.self) == nil)
        #expect(Self.parse("in_grace[period", as: RenewalState.self) == nil)
        #expect(Self.parse("IN_GRACE_PERIOD", as: RenewalState.self) == .inGracePeriod)
    }
}
