/// The Unicode controls that reorder the text around them (the bidirectional formatting
/// characters: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069). An id holding U+202E
/// would show a report's reader other text than the file holds ("Trojan Source"), so the
/// reports for people (report.html, the Markdown summaries) show each as its code point,
/// `\u202E`, as they show other controls. The data files (CSV, JSON, the snapshot) keep it.
enum BidiControls {
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `\u202E` for U+202E: what a report shows in its place.
    static func shown(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
