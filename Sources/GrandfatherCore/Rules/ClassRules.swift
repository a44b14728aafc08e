/// Each class (SPEC §4, §8.9): grandfathered by the cutover basis, else subscriber while
/// anything is current, else lapsed when something durable was bought, else new. A sandbox
/// customer is excluded before any of these is asked.
extension AuditRules {
    /// SPEC §8.9: the verdict of a customer whose own record is sandbox, before anything else
    /// is asked: excluded, flagged `sandbox` alone, with no answers (and so no grants);
    /// `nil` for a production customer.
    static func excluded(_ environment: Environment) -> Verdict? {
        guard environment == .sandbox else { return nil }
        return Verdict(customerClass: .excluded, flags: FlagSet(.sandbox), byVersion: nil, byDate: nil)
    }

    /// SPEC §4: the class of a production customer, from its answers and its transactions.
    func customerClass(grandfathered: Bool, anyCurrent: Bool, hasDurable: Bool) -> CustomerClass {
        if grandfathered { return .grandfathered }
        if anyCurrent { return .subscriber }
        if hasDurable { return .lapsed }
        return .new
    }

    /// SPEC §4: the rule that put a customer in its class, as `grandfather explain` states it;
    /// `grandfathered` names the answers the basis used (under `either`, every answer that
    /// said "before").
    static func reason(
        _ customerClass: CustomerClass, byVersion: Bool?, byDate: Bool?, basis: CutoverBasis
    ) -> Verdict.Reason {
        switch customerClass {
        case .excluded: return .sandbox
        case .subscriber: return .currentTransaction
        case .lapsed: return .nothingCurrent
        case .new: return .nothingDurable
        case .grandfathered:
            let version = byVersion ?? false
            let date = byDate ?? false
            switch basis {
            case .version: return .version
            case .date: return .date
            case .both: return .versionAndDate
            case .either: return version && date ? .versionAndDate : version ? .version : .date
            }
        }
    }

    /// SPEC §4, §8.10: whether the policy's basis says "bought before the cutover"; an
    /// absent answer is a no.
    func isGrandfathered(byVersion: Bool?, byDate: Bool?) -> Bool {
        let version = byVersion ?? false
        let date = byDate ?? false
        switch basis {
        case .version: return version
        case .date: return date
        case .either: return version || date
        case .both: return version && date
        }
    }
}
