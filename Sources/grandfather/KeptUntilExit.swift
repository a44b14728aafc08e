import GrandfatherCore

/// Keeps a run's audit alive until the process exits, so that it is never freed piece by
/// piece: releasing a million customers' records, activities and strings one allocation at
/// a time took about 0.7 s on one core at the end of the 1M-customer benchmark, while the
/// kernel reclaims the whole address space at exit at once.
enum KeptUntilExit {
    private final class Box: @unchecked Sendable {
        var audits: [Audit] = []
    }

    private static let box = Box()

    /// Keeps `audit`; called once per process, on the command's own thread.
    static func keep(_ audit: Audit) {
        box.audits.append(audit)
    }
}
