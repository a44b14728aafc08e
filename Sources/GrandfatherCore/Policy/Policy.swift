import Foundation
import GrandfatherEngine

/// The business rules of one audit (SPEC §3): the only place they live.
public struct Policy: Sendable {
    /// A human name for reports; optional.
    public var name: String?
    /// When and how the business model changed.
    public var cutover: Cutover
    /// What a grandfathered customer keeps, and what an unknown product grants.
    public var grandfatheredEntitlements: [String]
    /// Known products by product id.
    public var products: [String: ProductRule]
    /// Term of a non-renewing product without its own `term_days`.
    public var nonRenewingTermDays: Int
    /// Width of the edge windows around the cutover instant, in seconds.
    public var edgeWindowSeconds: Int64
    /// Rejected rows / rows read above which the run exits 3.
    public var maxRejectedFraction: Double
    /// The zone for zone-less timestamps; `nil` rejects them.
    public var defaultTimeZone: WallClockZone?
    /// How to convert revenue at stake into one reporting currency; `nil`: never converted.
    public var exchangeRates: ExchangeRates?
    /// How App Store files are read (`apple`).
    public var apple = ApplePolicy()
    /// How the stores' sales reports are counted (`sales`).
    public var sales = SalesPolicy()
    /// SHA-256 of the policy file's bytes, hex: names the policy in `runs`.
    public var digest: String
    /// The policy file's text, kept for `runs`.
    public var sourceText: String

    /// The entitlements a product grants (SPEC §8.12: an unknown product grants the grandfathered ones).
    public func entitlements(forProduct productID: String) -> [String] {
        products[productID]?.entitlements ?? unknownProductEntitlements
    }

    /// What a product the policy does not name grants (SPEC §8.12).
    public var unknownProductEntitlements: [String] { grandfatheredEntitlements }

    /// The term of a non-renewing product, in seconds.
    public func termSeconds(forProduct productID: String) -> Int64 {
        Int64(products[productID]?.termDays ?? nonRenewingTermDays) * 86_400
    }
}

/// The switch from paid to free: its instant, and the version per platform.
public struct Cutover: Sendable {
    /// The instant of the switch; also anchors the edge windows.
    public var date: Instant
    /// Cutover versions by platform; `nil` when the policy gives no `versions` table.
    public var versions: [Platform: AppVersion]?
    /// The `default` entry of `versions`.
    public var defaultVersion: AppVersion?
    /// Which evidence decides "bought before".
    public var basis: CutoverBasis

    /// The cutover version that applies to a platform: its own, else `default` for an Apple
    /// platform; the platforms SPEC §9 adds have a cutover only when the policy names them.
    public func version(for platform: Platform) -> AppVersion? {
        versions?[platform] ?? (platform.isApple ? defaultVersion : nil)
    }

    /// The versions table for reports: `ios 412, macos 3.0, default 2.0`, or `none`.
    public var versionsText: String {
        var parts: [String] = []
        for platform in Platform.allCases {
            if let version = versions?[platform] { parts.append("\(platform.rawValue) \(version.text)") }
        }
        if let defaultVersion { parts.append("default \(defaultVersion.text)") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}

/// What the policy says of one product.
public struct ProductRule: Sendable, Equatable {
    /// Entitlements granted while a transaction of this product is current.
    public var entitlements: [String]
    /// Term of a non-renewing product, in days of 86,400 s.
    public var termDays: Int?
    /// The product's type, for sources whose rows do not state it reliably (a RevenueCat
    /// export guesses it from `is_auto_renewable` and `product_duration`): SPEC §9's
    /// `products[id].type`. Canonical and App Store rows carry their own type and keep it.
    public var type: ProductType? = nil
}

/// The policy's optional `fx` table: rates into one reporting currency, as given (no rate is
/// ever looked up or invented).
public struct ExchangeRates: Sendable, Equatable {
    /// The reporting currency.
    public var currency: String
    /// Units of `currency` per unit of each other currency.
    public var rates: [String: Decimal]

    /// The rate of `code` into the reporting currency; 1 for the reporting currency itself.
    public func rate(for code: String) -> Decimal? {
        code == currency ? 1 : rates[code]
    }
}
