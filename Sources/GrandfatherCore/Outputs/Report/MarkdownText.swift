import GrandfatherEngine

/// Text that came from an input or the policy (ids, file names, the policy's name, currency
/// codes, notification types), made literal for the Markdown reports: whatever it holds, it
/// renders as the same characters in CommonMark and GitHub's dialect, and never as markup.
///
/// Every ASCII punctuation character that can open an inline construct (emphasis, code, a link
/// or image, an autolink, raw HTML, an entity, strikethrough, math, a table cell, an escape,
/// GitHub's `#123` and `@name` links) is backslash-escaped, which CommonMark defines for
/// punctuation; a line break becomes a space, so that a value can neither end its table row
/// nor start a block (values never open a line, so `-`, `+`, `=` and digits stay as they
/// are); other control characters are written `\xNN`, as every message quotes them, and the
/// controls that reorder text `\uNNNN` (`BidiControls`).
enum MarkdownText {
    /// Characters escaped with a backslash.
    private static let special: Set<Unicode.Scalar> = [
        "\\", "`", "*", "_", "[", "]", "<", ">", "&", "!", "~", "|", "$", "#", "@",
    ]

    /// `text` made literal.
    static func literal(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                out.append(" ")
            case _ where BidiControls.contains(scalar):
                out.append("\\")
                out.append(contentsOf: BidiControls.shown(scalar).unicodeScalars)
            case _ where special.contains(scalar):
                out.append("\\")
                out.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(
                    contentsOf: ("\\\\x" + String(repeating: "0", count: max(0, 2 - hex.count)) + hex).unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }
}
