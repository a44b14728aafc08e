import GrandfatherEngine

/// The SQL twin of `AnswerRules.swift` (SPEC §8.10, §8.17): the version answer, compared
/// component by component as numbers of any length, the date answer, and what the version
/// flags read of them. Each platform's cutover version is inlined, split into components.
extension AuditRules {
    /// The answers of each customer of `customers`, beside its columns: `by_version`,
    /// `by_date`, `naively_lower`, `unparseable` and `has_cutover_version`; mirrors
    /// `versionAnswer(_:platform:)` and `dateAnswer(_:)`.
    func answersSQL(_ sql: SQLContext, customers: String) -> SQLStep {
        let cutovers = Platform.allCases.compactMap { platform in
            policy.cutover.version(for: platform).map { (platform, $0.text) }
        }
        let width = cutovers.map { $0.1.split(separator: ".", omittingEmptySubsequences: false).count }.max() ?? 0
        let parts = (0..<width).map { index in
            "\(sql.withoutLeadingZeros(sql.part("original_app_version", index + 1))) AS v\(index + 1)"
        }
        func perPlatform(_ answer: (String) -> String) -> String {
            guard !cutovers.isEmpty else { return "NULL" }
            return "CASE WHEN original_app_version IS NULL OR NOT parseable THEN NULL\n"
                + cutovers.map { "        WHEN platform = '\($0.0.rawValue)' THEN \(answer($0.1))" }.joined(
                    separator: "\n")
                + "\n    END"
        }
        let byVersion = perPlatform { lower(sql, than: $0) }
        let naive = perPlatform { "original_app_version < \(sql.literal($0))" }
        let withCutover = cutovers.map { "'\($0.0.rawValue)'" }.joined(separator: ", ")
        let query = """
            SELECT
                parsed.*,
                \(byVersion) AS by_version,
                \(naive) AS naively_lower,
                original_purchase_date < \(sql.literal(cutover)) AS by_date,
                (original_app_version IS NOT NULL AND NOT parseable) AS unparseable,
                \(cutovers.isEmpty ? "FALSE" : "COALESCE(platform IN (\(withCutover)), FALSE)") AS has_cutover_version
            FROM (
                SELECT
                    \(customers).*,
                    \(parseableSQL("original_app_version")) AS parseable\(parts.isEmpty ? "" : ",\n            ")\(parts.joined(separator: ",\n            "))
                FROM \(customers)
            ) AS parsed
            """
        return SQLStep(
            name: "answers", spec: "§8.10, §8.17",
            mirrors: "AuditRules.versionAnswer, dateAnswer (Rules/AnswerRules.swift)", query: query)
    }

    /// Whether `text` is dot-separated ASCII digits with no empty component (`AppVersion`):
    /// written with TRANSLATE and LIKE, which read alike in every dialect (regular expressions
    /// do not: Java's `$` also matches before a final line break).
    private func parseableSQL(_ text: String) -> String {
        "COALESCE(\(text) <> '' AND REPLACE(TRANSLATE(\(text), '0123456789', ''), '.', '') = '' "
            + "AND \(text) NOT LIKE '.%' AND \(text) NOT LIKE '%.' AND \(text) NOT LIKE '%..%', FALSE)"
    }

    /// Whether the parsed components `v1…` are lower than `version`'s: at the first component
    /// that differs, the shorter digits (leading zeros gone) or the smaller are lower; a
    /// missing component is empty, which is 0. One flat CASE, a branch per component, rather
    /// than an expression nested per component: a cutover version of hundreds of components
    /// stays within every engine's expression depth (DuckDB's is 1,000).
    private func lower(_ sql: SQLContext, than version: String) -> String {
        let components = version.split(separator: ".", omittingEmptySubsequences: false).map { part in
            String(part.drop { $0 == "0" })
        }
        let branches = components.enumerated().map { index, component in
            let value = "v\(index + 1)"
            return "WHEN \(value) <> '\(component)' THEN LENGTH(\(value)) < \(component.count) "
                + "OR (LENGTH(\(value)) = \(component.count) AND \(value) < '\(component)')"
        }
        return "CASE " + branches.joined(separator: " ") + " ELSE FALSE END"
    }
}
