/// The two answers of SPEC §8.10 in words: the version against the cutover version, numerically
/// and naively, and the original purchase date against the cutover instant and edge windows.
extension ExplanationText {
    /// What a comparison of the version with the cutover version shows, when both are there
    /// and parse.
    struct VersionComparison {
        /// `<`, `=` or `>`, comparing component by component as integers (`AppVersion`).
        var numeric: String
        /// The components compared, up to the first that differs: `1 = 1, 9 < 10`.
        var steps: String
        /// `<`, `=` or `>`, comparing the texts by code points, as Apple's sample does.
        var naive: String

        init?(_ text: String, cutover: String) {
            guard let version = AppVersion(text), let target = AppVersion(cutover) else { return nil }
            numeric = Self.relation(version < target, version == target)
            naive = Self.relation(text.codePointPrecedes(cutover), text.codePointEquals(cutover))
            let mine = text.split(separator: ".", omittingEmptySubsequences: false)
            let theirs = cutover.split(separator: ".", omittingEmptySubsequences: false)
            var steps: [String] = []
            for index in 0..<max(mine.count, theirs.count) {
                // A missing component counts as 0; each component alone is a version.
                let left = index < mine.count ? String(mine[index]) : nil
                let right = index < theirs.count ? String(theirs[index]) : nil
                guard let a = AppVersion(left ?? "0"), let b = AppVersion(right ?? "0") else { return nil }
                let relation = Self.relation(a < b, a == b)
                steps.append("\(left ?? "(0)") \(relation) \(right ?? "(0)")")
                if relation != "=" { break }
            }
            let padded = mine.count != theirs.count && steps.contains { $0.contains("(0)") }
            self.steps = steps.joined(separator: ", ") + (padded ? "; a missing component counts as 0" : "")
        }

        private static func relation(_ lower: Bool, _ equal: Bool) -> String {
            lower ? "<" : equal ? "=" : ">"
        }
    }

    /// The version answer as the class line states it: `original_app_version 1.9 < cutover 1.10`,
    /// or why there is none.
    static func versionAnswer(_ explanation: Explanation) -> String {
        let facts = explanation.facts
        guard let text = facts.originalAppVersion else { return "no original_app_version, so no version answer" }
        let version = PlainText.escaped(text)
        guard let cutover = facts.cutoverVersion else {
            guard let platform = facts.platform else { return "no platform, so no version answer" }
            return "the policy has no cutover version for \(platform), so no version answer"
        }
        guard let comparison = VersionComparison(text, cutover: cutover) else {
            return "original_app_version \(version) is not dot-separated integers, so no version answer"
        }
        return "original_app_version \(version) \(comparison.numeric) cutover \(PlainText.escaped(cutover))"
    }

    /// The date answer as the class line states it.
    static func dateAnswer(_ explanation: Explanation) -> String {
        guard let purchased = explanation.facts.originalPurchaseDate else {
            return "no original_purchase_date, so no date answer"
        }
        let cutover = explanation.policy.cutover.date
        let relation = purchased < cutover ? "is before" : "is not before"
        return "original_purchase_date \(purchased.iso8601) \(relation) the cutover \(cutover.iso8601)"
    }

    /// The facts lines about the version.
    static func versionFacts(_ explanation: Explanation, into lines: inout [String]) {
        let facts = explanation.facts
        guard let text = facts.originalAppVersion else {
            lines.append(fact("original_app_version", "none: not verified, so there is no version answer"))
            return
        }
        lines.append(fact("original_app_version", PlainText.escaped(text)))
        guard facts.environment == .production else { return }
        guard let cutover = facts.cutoverVersion else {
            let why =
                explanation.policy.cutover.versions == nil
                ? "none: the policy has no cutover versions"
                : facts.platform.flatMap(Platform.init(rawValue:)).map { !$0.isApple } == true
                    ? "none: the policy names none for \(facts.platform ?? "") (its default is for Apple's platforms)"
                    : "none: the policy names none for \(facts.platform ?? "an unknown platform") and no default"
            lines.append(fact("cutover version", why + ", so there is no version answer"))
            return
        }
        var whose = "default"
        if let platform = facts.platform.flatMap(Platform.init(rawValue:)),
            explanation.policy.cutover.versions?[platform] != nil
        {
            whose = platform.rawValue
        }
        lines.append(fact("cutover version", "\(PlainText.escaped(cutover)) (the policy's \(whose) version)"))
        guard let comparison = VersionComparison(text, cutover: cutover) else {
            lines.append(
                fact("  as numbers", "cannot compare: not dot-separated integers, so there is no version answer"))
            return
        }
        let version = PlainText.escaped(text)
        let target = PlainText.escaped(cutover)
        let lower = comparison.numeric == "<"
        lines.append(
            fact(
                "  as numbers",
                "\(version) \(comparison.numeric) \(target) (component by component: \(comparison.steps)), "
                    + "so the version answer is \(answer(lower))"))
        let naiveLower = comparison.naive == "<"
        let naive = "\"\(version)\" \(comparison.naive) \"\(target)\" (by code points) "
        lines.append(
            fact(
                "  as plain strings",
                naive
                    + (naiveLower == lower
                        ? "says \(answer(naiveLower)) too"
                        : "would say \(answer(naiveLower)): the naive_version_trap")))
    }

    /// The facts lines about the original purchase date, against the cutover and its windows.
    static func dateFacts(_ explanation: Explanation, into lines: inout [String]) {
        guard let purchased = explanation.facts.originalPurchaseDate else {
            lines.append(fact("original_purchase_date", "none, so there is no date answer"))
            return
        }
        guard explanation.facts.environment == .production else {
            lines.append(fact("original_purchase_date", purchased.iso8601))
            return
        }
        let cutover = explanation.policy.cutover.date
        let windowSeconds = explanation.policy.edgeWindowSeconds
        let window = PlainText.duration(microseconds: windowSeconds * 1_000_000, days: false) + " window"
        let offset = purchased.microseconds - cutover.microseconds
        let distance = PlainText.duration(microseconds: offset)
        lines.append(
            fact("original_purchase_date", "\(purchased.iso8601), so the date answer is \(answer(offset < 0))"))
        var text: String
        if offset == 0 {
            text = "exactly at the cutover \(cutover.iso8601), inside the \(window) after it"
        } else if offset < 0 {
            text = "\(distance) before the cutover \(cutover.iso8601), "
            let inside = purchased >= cutover.adding(seconds: -windowSeconds)
            text += (inside ? "inside" : "outside") + " the \(window) before it"
        } else {
            text = "\(distance) after the cutover \(cutover.iso8601), "
            let inside = purchased < cutover.adding(seconds: windowSeconds)
            text += (inside ? "inside" : "outside") + " the \(window) after it"
        }
        lines.append(fact("  against the cutover", text))
    }

    /// An answer of SPEC §8.10 in quotes.
    private static func answer(_ before: Bool) -> String {
        before ? "\"before\"" : "\"not before\""
    }

    /// One `label  value` line of the facts, values aligned.
    static func fact(_ label: String, _ value: String) -> String {
        "  " + label + String(repeating: " ", count: max(1, 24 - label.count)) + value
    }
}
