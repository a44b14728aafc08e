import GrandfatherEngine

/// The policy's optional `apple` section: how App Store files are read.
public struct ApplePolicy: Sendable, Equatable {
    /// Which identifier names a customer across App Store files.
    public enum CustomerIdentity: String, Sendable, CaseIterable {
        /// `appTransactionId`: one per Apple Account (or family member) and app; carried by
        /// app transactions and by current signed transactions.
        case appTransactionID = "app_transaction_id"
        /// `appAccountToken`: the UUID the app set at purchase to name its own user.
        case appAccountToken = "app_account_token"
    }

    /// The customer identifier; `app_transaction_id` unless the policy says otherwise.
    public var customerIdentity: CustomerIdentity = .appTransactionID
    /// The platform of an app transaction without `originalPlatform` (before iOS 18.4) and of
    /// a receipt; `nil` rejects such rows.
    public var defaultPlatform: Platform?
    /// When set, every App Store payload must carry this `bundleId`.
    public var bundleID: String?
    /// When set (`Production`, `Sandbox`, `Xcode` or `LocalTesting`), every App Store
    /// payload must come from it; Xcode and LocalTesting data count as sandbox.
    public var environment: String?

    public init() {}

    /// Whether the policy asks for self-signed Xcode or LocalTesting data, which is then read
    /// (unverified, as sandbox) as `--accept-self-signed` reads it.
    public var acceptsSelfSigned: Bool { environment == "Xcode" || environment == "LocalTesting" }
}

extension PolicyReader {
    /// `apple`: `{"customer_identity": …, "default_platform": …, "bundle_id": …, "environment": …}`.
    func applePolicy(_ member: JSONMember) throws(GrandfatherError) -> ApplePolicy {
        guard let fields = member.value.members else { throw fail(member, "apple", "must be an object") }
        try checkDuplicates(fields, in: "apple")
        var apple = ApplePolicy()
        for field in fields {
            switch field.key {
            case "customer_identity":
                let text = try string(field, "apple.customer_identity")
                guard let identity = ApplePolicy.CustomerIdentity(rawValue: text) else {
                    throw fail(field, "apple.customer_identity", "must be app_transaction_id or app_account_token")
                }
                apple.customerIdentity = identity
            case "default_platform":
                let text = try string(field, "apple.default_platform")
                guard let platform = Platform(rawValue: text.lowercased()), platform.isApple else {
                    throw fail(
                        field, "apple.default_platform",
                        "unknown Apple platform '\(Excerpt.of(text))' (ios, ipados, macos, tvos, watchos, visionos)")
                }
                apple.defaultPlatform = platform
            case "bundle_id":
                let text = try string(field, "apple.bundle_id")
                guard !text.isEmpty else { throw fail(field, "apple.bundle_id", "must not be empty") }
                apple.bundleID = text
            case "environment":
                let text = try string(field, "apple.environment")
                guard ["Production", "Sandbox", "Xcode", "LocalTesting"].contains(text) else {
                    throw fail(field, "apple.environment", "must be Production, Sandbox, Xcode or LocalTesting")
                }
                apple.environment = text
            default: throw unknownKey(field, in: "apple")
            }
        }
        return apple
    }
}
