/// Seconds spent in each stage, on the monotonic clock: timings describe a run, never decide
/// anything in it, so they are the one clock the library reads.
public struct Stopwatch {
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant

    public init() {
        last = clock.now
    }

    /// Seconds since the last lap (or since the start), and starts the next lap.
    public mutating func lap() -> Double {
        let now = clock.now
        defer { last = now }
        return Self.seconds(now - last)
    }

    /// Seconds since the last lap, without starting another.
    public var elapsed: Double { Self.seconds(clock.now - last) }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
