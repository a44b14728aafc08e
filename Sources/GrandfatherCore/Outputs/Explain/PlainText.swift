/// How `grandfather explain` writes values for a person reading a terminal.
enum PlainText {
    /// The text as given, but with control characters (C0, DEL, C1) written `\xNN` or
    /// `\u{NNNN}`, so that a value can neither break a line nor drive the terminal. Nothing
    /// else is escaped: the output is plain text, not HTML, so `<script>` shows as it is.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result += scalar.value < 0x100 ? "\\x" + (hex.count == 1 ? "0" : "") + hex : "\\u{\(hex)}"
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) || scalar.value == 0x2028
            || scalar.value == 0x2029
    }

    /// A length of time as days, hours, minutes and seconds, zero parts left out
    /// (`3 h 12 min`, `69 d 23 h`, `0.25 s`); with `days: false`, hours are not folded into days.
    static func duration(microseconds: Int64, days useDays: Bool = true) -> String {
        let total = microseconds.magnitude
        let second: UInt64 = 1_000_000
        let days = useDays ? total / (86_400 * second) : 0
        var rest = total - days * 86_400 * second
        let hours = rest / (3_600 * second)
        rest -= hours * 3_600 * second
        let minutes = rest / (60 * second)
        rest -= minutes * 60 * second
        var parts: [String] = []
        if days > 0 { parts.append("\(days) d") }
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if rest > 0 || parts.isEmpty {
            var seconds = "\(rest / second)"
            if rest % second != 0 {
                var fraction = String(rest % second)
                fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                seconds += "." + fraction
            }
            parts.append(seconds + " s")
        }
        return parts.joined(separator: " ")
    }
}
