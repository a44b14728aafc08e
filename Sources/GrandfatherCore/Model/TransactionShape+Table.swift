extension TransactionShape {
    /// What each shape states, as docs/RevenueCat.md prints it (between its `shape-facts` markers):
    /// one row per shape, one column per fact.
    public static func markdownTable() -> String {
        let facts = TransactionFact.allCases
        var lines = ["| shape | " + facts.map { "`\($0.name)`" }.joined(separator: " | ") + " |"]
        lines.append("|---|" + facts.map { _ in "---" }.joined(separator: "|") + "|")
        for shape in allCases {
            let stated = Set(shape.facts)
            lines.append(
                "| `\(shape.code)` | " + facts.map { stated.contains($0) ? "yes" : "—" }.joined(separator: " | ") + " |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
