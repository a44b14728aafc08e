/// How the App Store inputs of a run were read, as `summary.json`'s `app_store` and
/// `runs.app_store_json` write it: the same keys in both.
struct AppStoreSummaryJSON: Encodable {
    var signatureChecks: String
    var verified: Bool
    var verifyAt: String
    var trustDecoded: Bool
    var acceptSelfSigned: Bool
    var trustedRoots: [String]
    var files: Int
    var rowsByTrust: [String: Int]
    var notificationTypes: [String: Int]
    var unknownNotificationTypes: [String: Int]
    var superseded: Int
    var unlinkedCustomers: Int

    init(_ summary: AppStoreSummary) {
        signatureChecks = summary.checks.description
        verified = summary.checks.verify
        verifyAt = summary.checks.verifyAt.rawValue
        trustDecoded = summary.checks.trustDecoded
        acceptSelfSigned = summary.checks.acceptSelfSigned
        trustedRoots = summary.checks.trustedRoots
        files = summary.files
        rowsByTrust = summary.rowsByTrust
        notificationTypes = summary.notificationTypes
        unknownNotificationTypes = summary.unknownNotificationTypes
        superseded = summary.superseded
        unlinkedCustomers = summary.unlinkedCustomers
    }

    enum CodingKeys: String, CodingKey {
        case verified, files, superseded
        case signatureChecks = "signature_checks"
        case verifyAt = "verify_at"
        case trustDecoded = "trust_decoded"
        case acceptSelfSigned = "accept_self_signed"
        case trustedRoots = "trusted_roots"
        case rowsByTrust = "rows_by_trust"
        case notificationTypes = "notification_types"
        case unknownNotificationTypes = "unknown_notification_types"
        case unlinkedCustomers = "unlinked_customers"
    }
}

/// The App Store lines of the human reports.
public enum AppStoreSection {
    /// A warning when the run read content it did not verify, else `nil`.
    public static func warning(_ summary: AppStoreSummary?) -> String? {
        guard let summary, summary.checks.weakensTrust else { return nil }
        var parts: [String] = []
        if !summary.checks.verify { parts.append("App Store signatures were NOT verified (--no-verify)") }
        if summary.checks.trustDecoded { parts.append("unsigned App Store payloads were trusted (--trust-decoded)") }
        if summary.checks.verify, summary.checks.acceptSelfSigned {
            let rows = summary.rowsByTrust[AppStoreTrust.selfSigned.rawValue] ?? 0
            parts.append(
                "self-signed Xcode/LocalTesting data was read as unverified sandbox data (--accept-self-signed): \(rows) row\(rows == 1 ? "" : "s")"
            )
        }
        return parts.joined(separator: "; ") + "."
    }

    /// Lines describing the App Store inputs, for `summary.md`; empty when none were read.
    public static func lines(_ summary: AppStoreSummary?) -> [String] {
        guard let summary else { return [] }
        var lines = ["Signature checks: \(summary.checks.description)."]
        guard summary.files > 0 else { return lines }
        let trust = AppStoreTrust.allCases.compactMap { trust in
            summary.rowsByTrust[trust.rawValue].map { "\($0) \(trust.reportName)" }
        }
        lines.append(
            "App Store files: \(summary.files); rows by trust: \(trust.isEmpty ? "none" : trust.joined(separator: ", ")); "
                + "superseded copies: \(summary.superseded); unlinked subscriptions: \(summary.unlinkedCustomers).")
        if !summary.notificationTypes.isEmpty {
            lines.append("Notifications: " + counted(summary.notificationTypes) + ".")
        }
        if !summary.unknownNotificationTypes.isEmpty {
            lines.append(
                "Unknown notification types (counted, not used): " + counted(summary.unknownNotificationTypes) + ".")
        }
        return lines
    }

    private static func counted(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ")
    }
}
