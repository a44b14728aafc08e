/// The summaries' "changes since the previous run": what the on-call person reads first.
enum ChangesSection {
    /// Changed customers listed by name in `summary.md`; the rest are in the snapshot.
    static let listed = 20

    /// One sentence on what was compared, or why nothing was; `quote` makes the path and
    /// reason, which come from outside, literal in the document the sentence goes into.
    static func basis(_ changes: ChangeSet, quote: (String) -> String = { $0 }) -> String {
        switch changes.basis {
        case .firstRun:
            return "Nothing to compare: this is the first run in this output folder."
        case .compared(_, let runID):
            let run = runID.map { "run `\($0)`" } ?? "the previous run"
            let count = changes.changes.count
            return
                "Compared with \(run): \(count) customer\(count == 1 ? "" : "s") changed class, flags or entitlements."
        case .unreadable(let path, let reason):
            return
                "Not compared: the previous run's snapshot \(MarkdownText.literal(path)) could not be read (\(MarkdownText.literal(reason)))."
        }
    }

    static func markdown(_ changes: ChangeSet) -> String {
        var md = "## Changes since the previous run\n\n" + basis(changes, quote: MarkdownText.literal) + "\n"
        guard changes.wasCompared else { return md }
        md += "\nCustomers by class, previous run (rows) to this run (columns); `absent` is a customer missing "
        md += "from that run.\n\n"
        let axis = ClassMatrix.axis
        md += "| from \\ to | " + axis.map(ClassMatrix.label).joined(separator: " | ") + " |\n"
        md += "| --- |" + String(repeating: " ---: |", count: axis.count) + "\n"
        for from in axis {
            let cells = axis.map { to in String(changes.matrix.count(from: from, to: to)) }
            md += "| **\(ClassMatrix.label(from))** | " + cells.joined(separator: " | ") + " |\n"
        }
        if !changes.flagsAdded.isEmpty || !changes.flagsRemoved.isEmpty {
            md += "\n| flag | customers added | customers removed |\n| --- | ---: | ---: |\n"
            let added = Dictionary(uniqueKeysWithValues: changes.flagsAdded)
            let removed = Dictionary(uniqueKeysWithValues: changes.flagsRemoved)
            for flag in Set(added.keys).union(removed.keys).sorted() {
                md += "| `\(flag)` | \(added[flag] ?? 0) | \(removed[flag] ?? 0) |\n"
            }
        }
        guard !changes.changes.isEmpty else { return md }
        let shown = changes.changes.prefix(listed)
        md += "\n| customer | from | to | flags added | flags removed | entitlements added | entitlements removed |\n"
        md += "| --- | --- | --- | --- | --- | --- | --- |\n"
        for change in shown {
            let cells = [
                MarkdownText.literal(change.customerID), ClassMatrix.label(change.from), ClassMatrix.label(change.to),
                list(change.flagsAdded), list(change.flagsRemoved), list(change.entitlementsAdded),
                list(change.entitlementsRemoved),
            ]
            md += "| " + cells.joined(separator: " | ") + " |\n"
        }
        if changes.changes.count > shown.count {
            md += "\nThe first \(shown.count) of \(changes.changes.count) are listed; the snapshot's `changes` table "
            md += "holds them all.\n"
        }
        return md
    }

    private static func list(_ items: [String]) -> String {
        items.isEmpty ? "" : MarkdownText.literal(items.joined(separator: ", "))
    }
}
