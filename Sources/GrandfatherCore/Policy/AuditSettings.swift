import GrandfatherEngine

/// Everything an audit's outcome depends on besides its inputs: the policy, the instant the
/// audit is taken at, the present (against which certificate chains are checked under
/// `--verify-at now`) and how App Store signatures are treated.
///
/// The command creates it once, reading the clock there, and hands it down: nothing in the
/// library reads a clock or the environment, so the same settings and inputs give the same
/// audit.
public struct AuditSettings: Sendable {
    public var policy: Policy
    /// The as-of instant (SPEC §3): what is current, what is in the future.
    public var asOf: Instant
    /// The present, as the command read it when the run began.
    public var now: Instant
    public var signatures: SignatureChecks
    /// How a team's own export maps onto SPEC §2 (`--map`); `nil` when none was given.
    public var mapping: Mapping?

    /// - Parameter now: the present; `asOf` when not given, so that a library caller's audit
    ///   depends on nothing but its arguments.
    public init(policy: Policy, asOf: Instant, now: Instant? = nil, signatures: SignatureChecks = SignatureChecks()) {
        self.policy = policy
        self.asOf = asOf
        self.now = now ?? asOf
        self.signatures = signatures
    }

    /// The same settings under another policy, for a dry run that compares two.
    public func under(_ policy: Policy) -> AuditSettings {
        var settings = self
        settings.policy = policy
        return settings
    }
}
