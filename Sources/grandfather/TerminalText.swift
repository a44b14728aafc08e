import GrandfatherEngine

/// Text for a terminal or a log a person reads: control characters (C0, DEL and C1) written
/// `\xNN`, so that a file name or a value holding an escape sequence is shown, not obeyed.
/// Reasons quote input values this way already (`Excerpt`); this covers everything else a
/// line carries: file names, folder names, the policy's name.
enum TerminalText {
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out.append(contentsOf: ("\\x" + String(repeating: "0", count: max(0, 2 - hex.count)) + hex).unicodeScalars)
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `1 row`, `2 rows`.
    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }
}
