/// What the App Store inputs of a run amounted to, for every report and `runs`.
public struct AppStoreSummary: Sendable, Equatable, Codable {
    /// How signatures were treated.
    public var checks: SignatureChecks
    /// App Store files read.
    public var files = 0
    /// Rows read by the trust their content had; rows refused are not counted here.
    public var rowsByTrust: [String: Int] = [:]
    /// Notification types (`notificationType`, `/subtype` when given) and how many.
    public var notificationTypes: [String: Int] = [:]
    /// Types not in Apple's documented list: counted, not fatal.
    public var unknownNotificationTypes: [String: Int] = [:]
    /// Copies of a transaction or app transaction that a later-signed copy superseded.
    public var superseded = 0
    /// Customers made for subscriptions that no identity reached.
    public var unlinkedCustomers = 0

    public init(checks: SignatureChecks) {
        self.checks = checks
    }
}

/// Handed on by the App Store source, which reads every App Store input of a run together and
/// gives one summary for them all.
extension AppStoreSummary: SourceFinding {
    init() { self.init(checks: SignatureChecks()) }

    mutating func merge(_ later: AppStoreSummary) { self = later }
}
