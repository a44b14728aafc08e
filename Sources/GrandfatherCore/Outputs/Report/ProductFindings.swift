import Foundation

/// The products whose type rests on weak evidence (SPEC §9, Product facts): those whose
/// evidence disagrees, those whose type is the fallback's alone, and non-renewing ones whose
/// export rows state different terms the policy does not settle, each with its evidence,
/// the customers it touches and the `products` entry that would settle it. `validate`,
/// summary.md, summary.json and report.html list them, only when there are any.
public enum ProductFindings {
    /// One product to settle.
    public struct Finding: Encodable, Equatable, Sendable {
        public var product: String
        /// The type the run gave it.
        public var type: String
        /// What the type rests on (`ProductTypeSource.code`).
        public var source: String
        public var disagrees: Bool
        /// Rows stating each type, by source.
        public var evidence: [String: [String: Int]]
        /// Rows that stated nothing of the type.
        public var silentRows: Int
        /// Customers with a row of the product.
        public var customers: Int
        /// The shortest and the longest term export rows state, when they differ and the
        /// policy gives no `term_days` (the longest ends its transactions); else `nil`.
        public var terms: [String]?
        /// The policy entry that settles the type, as JSON text.
        public var suggestedEntry: String

        enum CodingKeys: String, CodingKey {
            case product, type, source, disagrees, evidence, customers, terms
            case silentRows = "silent_rows"
            case suggestedEntry = "suggested_products_entry"
        }
    }

    /// The findings a source hands on (the RevenueCat source, which weighs product facts).
    struct Listed: SourceFinding {
        var findings: [Finding] = []

        mutating func merge(_ later: Listed) { findings += later.findings }
    }

    /// Whether a product's decision is listed: its evidence disagrees, its type is the
    /// fallback's alone, or its rows state terms that disagree.
    static func lists(_ decision: ProductFactRules.Decision) -> Bool {
        decision.disagrees || decision.source == .fallback || decision.termsDisagree
    }

    /// The findings of decisions, given the customers each product touched; in product order.
    static func findings(
        _ decisions: [String: ProductFactRules.Decision], customers: [String: Int]
    ) -> [Finding] {
        decisions.values.filter(lists).sorted {
            $0.product.utf8.lexicographicallyPrecedes($1.product.utf8)
        }.map { decision in
            var evidence: [String: [String: Int]] = [:]
            for (source, counts) in decision.stated {
                evidence[source.code] = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
            }
            return Finding(
                product: decision.product, type: decision.type.rawValue, source: decision.source.code,
                disagrees: decision.disagrees, evidence: evidence, silentRows: decision.silent,
                customers: customers[decision.product] ?? 0,
                terms: decision.termsDisagree
                    ? [decision.shortestDuration, decision.duration].compactMap { $0?.iso8601 } : nil,
                suggestedEntry: "\(quoted(decision.product)): {\"type\": \"\(decision.type.rawValue)\""
                    + (decision.duration.map { decision.termsDisagree ? ", \"term_days\": \($0.typicalDays)" : "" }
                        ?? "")
                    + "}")
        }
    }

    /// One line per finding, for `validate` and summary.md.
    public static func lines(_ findings: [Finding]) -> [String] {
        findings.map { finding in
            let stated = finding.evidence.keys.sorted().map { source in
                let counts = finding.evidence[source] ?? [:]
                return source + " " + counts.keys.sorted().map { "\($0) ×\(counts[$0] ?? 0)" }.joined(separator: ", ")
            }
            var said = stated.joined(separator: "; ")
            if finding.silentRows > 0 {
                said += (said.isEmpty ? "" : "; ") + "\(finding.silentRows) rows state nothing"
            }
            var why = finding.disagrees ? "its rows disagree" : "no row, response or policy states its type"
            if let terms = finding.terms {
                why = "its export rows state terms from \(terms.first ?? "") to \(terms.last ?? ""), the longest used"
            }
            return "product \(finding.product): \(finding.type) by \(finding.source) (\(why): \(said)); "
                + "\(finding.customers) customers; settle it in the policy's products: \(finding.suggestedEntry)"
        }
    }

    /// summary.md's section, empty when nothing is listed.
    static func markdown(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "" }
        var md = "## Products to settle\n\nA product's type is a fact about the product (SPEC §9): these rest on "
        md +=
            "evidence that disagrees, or on the fallback alone. Each line ends with the policy entry that settles it.\n\n"
        for line in lines(findings) { md += "- " + MarkdownText.literal(line) + "\n" }
        return md + "\n"
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
