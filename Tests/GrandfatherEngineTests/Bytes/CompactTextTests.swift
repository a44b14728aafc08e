import Testing

@testable import GrandfatherEngine

@Suite struct CompactTextTests {
    /// Short ids are held inline, longer ones as strings; both give back their exact bytes.
    @Test(arguments: [
        "", "1", "123456789", "2000073933900015", "12345678901234567", "123456789012345678901234",
        "1234567890123456789012345", "é-ñ",
    ])
    func givesBackTheTextItWasMadeFrom(text: String) {
        let bytes = Array(text.utf8)
        let compact = bytes.withUnsafeBytes { CompactText($0) }
        #expect(compact.string == text)
        #expect(compact.withBytes { Array($0) } == bytes)
    }
}
