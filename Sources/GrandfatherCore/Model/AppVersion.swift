import GrandfatherEngine

/// An app version as dot-separated integers.
///
/// Components compare as integers of any length ("10" > "2", "1.10" > "1.9"), missing
/// components count as 0 ("2" = "2.0" = "2.0.0"), and leading zeros are allowed
/// ("0245" = "245"). Anything else (a sign, a letter, an empty component, a space)
/// does not parse (SPEC §8.10). The classify stage compares a customer's version text with
/// a cutover's on bytes, building nothing: `compare(_:with:)`, in AppVersion+Comparison.swift,
/// by the engine's `VersionText`.
public struct AppVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The text as it was given.
    public let text: String
    /// Components with leading zeros removed and trailing zero components dropped,
    /// so that equal versions have equal components.
    private let components: [Substring]

    /// Parses a version; `nil` when the text is not dot-separated ASCII digits.
    public init?(_ text: String) {
        var parts: [Substring] = []
        for part in text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let digits = part.drop(while: { $0 == 0x30 })
            parts.append(Substring(digits))
        }
        while let last = parts.last, last.isEmpty { parts.removeLast() }
        self.text = text
        self.components = parts
    }

    public var description: String { text }

    public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool {
        lhs.components == rhs.components
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(components)
    }

    /// Component by component, each by its length and then its digits: leading zeros are
    /// gone, and a missing component is an empty one, 0. (`compare(_:with:)` answers the same
    /// on bytes, for the classify stage; the fuzzer checks that the two agree.)
    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let mine = index < lhs.components.count ? lhs.components[index].utf8 : Substring().utf8
            let theirs = index < rhs.components.count ? rhs.components[index].utf8 : Substring().utf8
            if mine.count != theirs.count { return mine.count < theirs.count }
            if !mine.elementsEqual(theirs) { return mine.lexicographicallyPrecedes(theirs) }
        }
        return false
    }

    /// Whether plain string comparison (by Unicode code points) says `self` < `other`,
    /// the mistake Apple's sample code makes and `naive_version_trap` reports.
    public func naivelyPrecedes(_ other: AppVersion) -> Bool {
        // UTF-8 orders as code points do.
        text.utf8.lexicographicallyPrecedes(other.text.utf8)
    }
}
