import GrandfatherEngine

/// The policy's optional `sales` section: how the stores' sales reports are counted.
public struct SalesPolicy: Sendable, Equatable {
    /// Which apps are the paid app, when a report holds several: App Store Apple Identifiers
    /// or SKUs, Google Play package names. Empty: a report's one app is the paid app, and a
    /// report of several apps is counted per app but set against no customers.
    public var paidApp: Set<String> = []

    public init() {}

    /// Whether the rows of an app (by any of the names a report gives it) count as the paid app.
    func names(_ names: [String]) -> Bool {
        names.contains { paidApp.contains($0) }
    }

    /// Whether the policy names its paid apps and an app known by `names` is none of them: a
    /// row, verdict or notification about another app.
    func rulesOut(_ names: [String]) -> Bool {
        !paidApp.isEmpty && !self.names(names)
    }
}

extension PolicyReader {
    /// `sales`: `{"paid_app": ["1234567890", "com.example.app"]}`.
    func salesPolicy(_ member: JSONMember) throws(GrandfatherError) -> SalesPolicy {
        guard let fields = member.value.members else { throw fail(member, "sales", "must be an object") }
        try checkDuplicates(fields, in: "sales")
        var sales = SalesPolicy()
        for field in fields {
            switch field.key {
            case "paid_app":
                let list = try stringList(field, "sales.paid_app")
                guard !list.isEmpty, !list.contains(where: \.isEmpty) else {
                    throw fail(field, "sales.paid_app", "must list at least one non-empty app id")
                }
                sales.paidApp = Set(list)
            default: throw unknownKey(field, in: "sales")
            }
        }
        return sales
    }
}
