import Foundation

/// Counts concurrent jobs down to the one that ends last, which then does what needs them
/// all (merging the snapshot's parts) while other cores go on with other work.
public final class Countdown: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var left: Int
    private var failed = false

    public init(_ count: Int) {
        left = count
    }

    /// Marks one job done; true for the last one, when none failed.
    public func finishOne() -> Bool {
        lock.withLock {
            left -= 1
            return left == 0 && !failed
        }
    }

    /// Marks one job failed: no job is then the last.
    public func fail() {
        lock.withLock {
            left -= 1
            failed = true
        }
    }
}
