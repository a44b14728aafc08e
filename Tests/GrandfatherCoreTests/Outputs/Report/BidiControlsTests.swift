import Testing

@testable import GrandfatherCore

/// Issue 33, item 12: the controls that reorder text reach the reports people read only as
/// their code points, in HTML and in Markdown; every other character as before.
struct BidiControlsTests {
    static let controls: [Unicode.Scalar] = [
        "\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}",
        "\u{2067}", "\u{2068}", "\u{2069}",
    ]

    @Test(arguments: controls) func eachControlIsShownAsItsCodePoint(_ control: Unicode.Scalar) {
        let text = "evil" + String(Character(control)) + "cod.exe"
        let shown = BidiControls.shown(control)
        #expect(shown.hasPrefix("\\u") && shown.count == 6)
        #expect(ReportHTMLText().escapeText(text) == "evil\(shown)cod.exe")
        // Markdown escapes the backslash, so that it renders as one.
        #expect(MarkdownText.literal(text) == "evil\\\(shown)cod.exe")
    }

    @Test func otherTextIsEscapedAsSwiftMustacheEscapesIt() {
        #expect(
            ReportHTMLText().escapeText("<a href=\"x\">Tom & Jerry's</a> é \u{202B}")
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt; é \\u202B")
        #expect(!BidiControls.contains("\u{200D}"))  // a zero-width joiner reorders nothing
    }
}
