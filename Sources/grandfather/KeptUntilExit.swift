import GrandfatherCore
import Synchronization

/// Keeps a run's audit alive until the process exits, so that it is never freed piece by
/// piece: releasing a million customers' records, activities and strings one allocation at
/// a time took about 0.7 s on one core at the end of the 1M-customer benchmark, while the
/// kernel reclaims the whole address space at exit at once.
enum KeptUntilExit {
    private static let audits = Mutex<[Audit]>([])

    /// Keeps `audit`; called once per process.
    static func keep(_ audit: Audit) {
        audits.withLock { $0.append(audit) }
    }
}
