import GrandfatherEngine

/// The rules of one run, built once from its settings: what SPEC §4, §5 and §8.8–8.24 read
/// of the policy and the as-of instant, laid out so that a million customers read them on
/// every core without touching a reference count (the policy itself holds strings and
/// tables; a copy per transaction or customer would retain and release each).
///
/// Each file of this folder states one family of rules over plain values, naming its SPEC
/// sections: `ActivityRules` (what counts, which auto-renewable is the latest; plain static
/// functions, no settings), `CurrencyRules` (what makes a transaction current), `AnswerRules` (the version
/// and date answers), `ClassRules` (each class), `FlagRules` (each flag) and
/// `EntitlementRules` (each grant). The SQL twin of a family can sit beside its file. The
/// engine folds and lends the values; it never restates a rule.
final class AuditRules: Sendable {
    let policy: Policy
    /// The as-of instant (SPEC §3): what is current, what lies in the future.
    let asOf: Instant
    /// The cutover date of the policy (SPEC §3).
    let cutover: Instant
    let edgeWindowSeconds: Int64
    /// Whether the policy has a versions table at all.
    let hasVersions: Bool
    let basis: CutoverBasis
    let entitlements: ProductEntitlements
    /// By `Platform.index`: the platform's cutover version text, absent for none. Every
    /// customer's version is compared with one of them on every core at once.
    let versions: PackedTexts

    init(_ settings: AuditSettings) {
        let policy = settings.policy
        self.policy = policy
        self.asOf = settings.asOf
        cutover = policy.cutover.date
        edgeWindowSeconds = policy.edgeWindowSeconds
        hasVersions = policy.cutover.versions != nil
        basis = policy.cutover.basis
        entitlements = ProductEntitlements(policy)
        versions = PackedTexts(Platform.allCases.map { policy.cutover.version(for: $0)?.text })
    }
}
