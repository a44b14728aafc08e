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

    /// The names of the steps `script` holds, read back from the lines `text` writes (a
    /// `-- SPEC` comment, then `name AS (`).
    static func names(in script: String) -> Set<String> {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        var names: Set<String> = []
        for (comment, line) in zip(lines, lines.dropFirst()) where comment.hasPrefix("    -- SPEC ") {
            guard line.hasPrefix("    "), line.hasSuffix(" AS (") else { continue }
            names.insert(String(line.dropFirst(4).dropLast(5)))
        }
        return names
    }

    /// `WITH steps… final`.
    static func query(_ steps: [SQLStep], _ final: String) -> String {
        guard !steps.isEmpty else { return final }
        return "WITH\n" + steps.map(\.text).joined(separator: ",\n") + "\n" + final
    }
}
