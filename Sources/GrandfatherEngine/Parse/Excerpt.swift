/// A value from the input as reasons and messages quote it: at most `maximumScalars`
/// characters, then `…`, with control characters written `\xNN`, so that a reason stays one
/// short line whatever a field holds (a 10 MB value, a line break, a NUL byte). The excerpt of
/// a field's raw bytes is made in Parse/Excerpt+Bytes.swift.
public enum Excerpt {
    /// Characters shown before the cut.
    static let maximumScalars = 64

    /// The excerpt of a string; `cut` says the string is already a prefix of the value.
    public static func of(_ text: String, cut: Bool = false) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maximumScalars { return result + "…" }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count == 1 ? "0" : "") + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return cut ? result + "…" : result
    }
}
