/// The flag catalog as a Markdown table: the README's copy is generated from it
/// (`scripts/update-docs`), and a test fails when that copy is stale.
public enum FlagTable {
    /// One row per flag, in catalog order.
    public static func markdown() -> String {
        var text = "| code | severity | meaning |\n| --- | --- | --- |\n"
        for flag in Flag.allCases {
            text += "| `\(flag.code)` | \(flag.severity.rawValue) | \(flag.explanation) |\n"
        }
        return text
    }
}
