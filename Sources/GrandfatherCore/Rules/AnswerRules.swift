import GrandfatherEngine

/// The two answers to "bought before the cutover?" (SPEC §8.10), each absent when the
/// customer's record cannot give it.
extension AuditRules {
    /// The version answer and what the version flags read of it (SPEC §8.10, §8.16, §8.17).
    struct VersionAnswer {
        /// Whether the original version is lower than the platform's cutover version; `nil`
        /// without a version, a parseable one, a platform or a cutover version for it.
        var before: Bool?
        /// Plain string comparison would answer otherwise (`naive_version_trap`).
        var naiveDisagrees = false
        /// The version is given but is no version (`unparseable_version`).
        var unparseable = false
    }

    /// The version answer for `version` on `platform`: the version is read once, against the
    /// platform's cutover version if it has one.
    func versionAnswer(_ version: String?, platform: Platform?) -> VersionAnswer {
        guard let version else { return VersionAnswer() }
        if let platform, let comparison = compare(version, platform: platform) {
            return VersionAnswer(before: comparison.lower, naiveDisagrees: comparison.lower != comparison.naivelyLower)
        }
        return VersionAnswer(unparseable: AppVersion(version) == nil)
    }

    /// The date answer: whether the original purchase came before the cutover date; `nil`
    /// without one.
    func dateAnswer(_ purchased: Instant?) -> Bool? {
        purchased.map { $0 < cutover }
    }

    /// Whether the policy names a cutover version for `platform`.
    func hasCutoverVersion(for platform: Platform) -> Bool {
        versions.contains(platform.index)
    }

    /// `AppVersion.compare`, on bytes, of `text` with the platform's cutover version, `nil` when there is
    /// none or `text` is no version.
    private func compare(_ text: String, platform: Platform) -> (lower: Bool, naivelyLower: Bool)? {
        var text = text
        let compared = versions.withText(platform.index) { version in
            text.withUTF8 { VersionText.compare($0, withVersion: version) }
        }
        return compared ?? nil
    }
}
