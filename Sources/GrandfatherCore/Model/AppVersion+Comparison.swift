import GrandfatherEngine

/// `AppVersion`'s comparison of version text, on bytes by the engine's `VersionText`: the
/// classify stage compares every customer's version with the cutover's, on every core, so
/// nothing is built and nothing is retained. It answers as `<` and `naivelyPrecedes` do (the
/// version fuzzer checks that).
extension AppVersion {
    /// Compares version text with a parsed version without building one: `nil` when the text
    /// does not parse, else whether it is lower and whether plain string comparison (by code
    /// points) says it is lower — the two answers `naive_version_trap` compares.
    static func compare(_ text: String, with other: AppVersion) -> (lower: Bool, naivelyLower: Bool)? {
        var text = text
        var otherText = other.text
        return text.withUTF8 { mine in otherText.withUTF8 { theirs in VersionText.compare(mine, withVersion: theirs) } }
    }
}
