/// One line on why a customer is in its class (SPEC §4), for the reports' customer lists.
enum ClassReason {
    static func text(_ customer: Customer, _ verdict: Verdict, policy: Policy) -> String {
        let cutover = policy.cutover
        let version = answer(customer, verdict.byVersion, cutover: cutover, byVersion: true)
        let date = answer(customer, verdict.byDate, cutover: cutover, byVersion: false)
        let before: String
        switch cutover.basis {
        case .version: before = version
        case .date: before = date
        case .either, .both: before = "\(version); \(date)"
        }
        switch verdict.customerClass {
        case .excluded: return "sandbox customer: excluded from the four classes"
        case .grandfathered: return "grandfathered (basis \(cutover.basis.rawValue)): \(before)"
        case .subscriber: return "not grandfathered (\(before)); holds a current transaction"
        case .lapsed: return "not grandfathered (\(before)); bought to keep, nothing current"
        case .new: return "not grandfathered (\(before)); nothing bought to keep"
        }
    }

    private static func answer(_ customer: Customer, _ lower: Bool?, cutover: Cutover, byVersion: Bool) -> String {
        if byVersion {
            guard let text = customer.originalAppVersion else { return "no original version" }
            guard let lower, let target = customer.platform.flatMap(cutover.version(for:)) else {
                return "version \(text) not comparable"
            }
            return "version \(text) \(lower ? "below" : "not below") cutover \(target.text)"
        }
        guard let purchased = customer.originalPurchaseDate, let lower else { return "no original purchase date" }
        return "bought \(purchased.iso8601) \(lower ? "before" : "not before") the cutover"
    }
}
