import GrandfatherEngine

/// App Store values turned into Grandfather's: instants, decimal units, and the SPEC §2
/// spelling of each closed vocabulary (a value the App Store does not document stays as
/// written, for `AppStoreMembers` to refuse with the value quoted).
enum AppStoreValue {
    /// Epoch milliseconds as written (`1698148900000`, Xcode's fractional
    /// `1697680122257.447`, the year-0001 `-62135769600000`) as an instant; digits finer than
    /// a microsecond are dropped. `nil` for anything else (an exponent, a word, overflow).
    static func instant(milliseconds text: String) -> Instant? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, isDigits(whole), let milliseconds = Int64(whole) else { return nil }
        var micros: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard isDigits(fraction) else { return nil }
            let three = String(fraction.prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)
            micros = Int64(three) ?? 0
        }
        let (scaled, overflow) = milliseconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        let magnitude = scaled + micros
        return Instant(microseconds: negative ? -magnitude : magnitude)
    }

    /// A date member as an instant, when it is epoch milliseconds within `Instant.supported`.
    static func instant(_ value: JSONValue.Located?) -> Instant? {
        value?.text.flatMap { instant(milliseconds: $0) }.flatMap { Instant.supported.contains($0) ? $0 : nil }
    }

    /// Why a date member that is present cannot be read as an instant, else `nil`.
    static func dateProblem(_ value: JSONValue.Located?, named name: String) -> String? {
        guard let text = value?.text, !text.isEmpty else { return nil }
        guard let instant = instant(milliseconds: text) else {
            return "\(name): not epoch milliseconds '\(Excerpt.of(text))'"
        }
        guard Instant.supported.contains(instant) else {
            return "\(name): timestamp '\(Excerpt.of(text))' is outside \(Instant.supportedDescription)"
        }
        return nil
    }

    /// Milliunits as written (`9990`, `230000`, `0`) as a decimal in units (`9.99`, `230`,
    /// `0`), by moving the decimal point on the digits: no floating point. `nil` for anything
    /// but a plain decimal number.
    static func units(milliunits text: String) -> String? {
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, isDigits(whole) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || isDigits(fraction) else { return nil }
        var digits = Array(whole + fraction)
        var point = whole.count - 3
        if point < 1 {
            digits.insert(contentsOf: repeatElement("0", count: 1 - point), at: 0)
            point = 1
        }
        var integer = digits[..<point].drop { $0 == "0" }
        var decimals = digits[point...]
        while decimals.last == "0" { decimals.removeLast() }
        if integer.isEmpty { integer = ["0"] }
        if integer == ["0"], decimals.isEmpty { return "0" }
        return (negative ? "-" : "") + String(integer) + (decimals.isEmpty ? "" : "." + String(decimals))
    }

    /// `type` → `product_type`; an unknown type stays as written.
    static func productType(_ raw: String) -> String {
        switch raw {
        case "Auto-Renewable Subscription": return "auto_renewable"
        case "Non-Renewing Subscription": return "non_renewing"
        case "Non-Consumable": return "non_consumable"
        case "Consumable": return "consumable"
        default: return raw
        }
    }

    /// `inAppOwnershipType` / `in_app_ownership_type` → `ownership_type`.
    static func ownership(_ raw: String) -> String {
        switch raw {
        case "PURCHASED": return "purchased"
        case "FAMILY_SHARED": return "family_shared"
        default: return raw
        }
    }

    /// A transaction's `environment`: Xcode and LocalTesting data is sandbox data.
    static func environment(_ raw: String) -> String {
        switch raw {
        case "Production": return "production"
        case "Sandbox", "Xcode", "LocalTesting": return "sandbox"
        default: return raw
        }
    }

    /// `originalPlatform` → `platform`; an unknown platform stays as written.
    static func platform(_ raw: String) -> String {
        switch raw {
        case "iOS": return "ios"
        case "iPadOS": return "ipados"
        case "macOS": return "macos"
        case "tvOS": return "tvos"
        case "watchOS": return "watchos"
        case "visionOS": return "visionos"
        default: return raw
        }
    }

    /// A subscription status (`data.status`, `lastTransactions[].status`) → `renewal_state`;
    /// `nil` for a status not documented (then the state cannot be told).
    static func renewalState(status: String) -> RenewalState? {
        switch status {
        case "1": return .subscribed
        case "2": return .expired
        case "3": return .inBillingRetry
        case "4": return .inGracePeriod
        case "5": return .revoked
        default: return nil
        }
    }

    /// One or more ASCII digits, nothing else.
    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
