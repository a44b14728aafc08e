/// The class with the rule of SPEC §4 that decided it.
extension ExplanationText {
    static func classLine(_ explanation: Explanation) -> String {
        let basis = explanation.policy.cutover.basis
        let prefix = "policy basis '\(basis.rawValue)': "
        let version = versionAnswer(explanation)
        let date = dateAnswer(explanation)
        switch explanation.customerClass {
        case .excluded:
            return "excluded: the customer's own record is sandbox, so it is reported but never counted in the "
                + "four classes, with exactly the flag sandbox and no entitlements (SPEC §8.9)"
        case .grandfathered:
            switch explanation.reason {
            case .date: return "grandfathered: " + prefix + date
            case .versionAndDate: return "grandfathered: " + prefix + version + ", and " + date
            default: return "grandfathered: " + prefix + version
            }
        case .subscriber, .lapsed, .new:
            let answers: String
            switch basis {
            case .version: answers = version
            case .date: answers = date
            case .either, .both: answers = version + "; " + date
            }
            let notGrandfathered = "not grandfathered (" + prefix + answers + "); "
            return explanation.customerClass.rawValue + ": " + notGrandfathered + rest(explanation)
        }
    }

    /// What decided among subscriber, lapsed and new.
    private static func rest(_ explanation: Explanation) -> String {
        let asOf = explanation.run.asOf.iso8601
        switch explanation.customerClass {
        case .subscriber:
            guard let transactions = explanation.transactions else {
                let ids = Set(explanation.grants.compactMap(\.transactionID)).sorted { $0.codePointPrecedes($1) }
                let named = ids.isEmpty ? "" : " (" + ids.map(PlainText.escaped).joined(separator: ", ") + ")"
                return "holds a transaction current as of \(asOf)\(named)"
            }
            let current = transactions.filter(\.isCurrent)
            let listed = current.prefix(3).map(brief).joined(separator: "; ")
            let more = current.count > 3 ? "; and \(current.count - 3) more" : ""
            let noun = current.count == 1 ? "a current transaction" : "\(current.count) current transactions"
            return "holds \(noun) (\(listed)\(more))"
        case .lapsed:
            var text = "nothing is current as of \(asOf), but it had a non-consumable, auto-renewable or "
            text += "non-renewing transaction"
            if let latest = explanation.transactions?.first(where: { !$0.isCurrent }) {
                text += " (the latest auto-renewable, \(PlainText.escaped(latest.transactionID))"
                text += latest.renewalState.map { ", has renewal_state \($0.rawValue))" } ?? ")"
            }
            return text
        default:
            let consumables = explanation.flags.contains { $0.code == Flag.consumableOnly.code }
            return "no non-consumable, auto-renewable or non-renewing transaction"
                + (consumables ? " (consumables only, which never entitle)" : " (no transactions at all)")
        }
    }
}
