/// One common table expression of the classification script: a rule stated as SQL, with the
/// SPEC section it implements and the Swift rule it mirrors, which the script prints above it.
struct SQLStep: Sendable {
    var name: String
    /// The SPEC sections, `§8.11, §8.12`.
    var spec: String
    /// The Swift rule, `AuditRules.currency (Rules/CurrencyRules.swift)`.
    var mirrors: String
    var query: String

    /// `name AS (query)` under its comment, indented for a WITH list.
    var text: String {
        let body = query.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }
            .joined(separator: "\n")
        return "    -- SPEC \(spec); mirrors \(mirrors).\n    \(name) AS (\n\(body)\n    )"
    }

    /// `WITH steps… final`.
    static func query(_ steps: [SQLStep], _ final: String) -> String {
        guard !steps.isEmpty else { return final }
        return "WITH\n" + steps.map(\.text).joined(separator: ",\n") + "\n" + final
    }
}
