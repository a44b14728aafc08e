/// The result of classifying every customer: what every report and the snapshot render.
public struct Audit: Sendable {
    public var policy: Policy
    public var asOf: Instant
    /// One report per input file, in command-line order.
    public var inputs: [InputReport]
    /// Every rejected row, in input order then line order.
    public var rejections: [Rejection]
    /// Every customer, sorted by id in code-point order (SPEC §8.25).
    public var customers: [CustomerResult]
    /// Wall time of each stage, in seconds; describes the run, never the reports.
    public var timings: StageTimings

    public var rowsRead: Int { inputs.reduce(0) { $0 + $1.rowsRead } }
    public var rowsRejected: Int { inputs.reduce(0) { $0 + $1.rowsRejected } }
    public var rowsAccepted: Int { inputs.reduce(0) { $0 + $1.rowsAccepted } }

    /// Rejected rows over rows read, 0 when nothing was read.
    public var rejectedFraction: Double {
        rowsRead == 0 ? 0 : Double(rowsRejected) / Double(rowsRead)
    }

    /// Whether the data-quality threshold was exceeded (exit 3, `latest` not moved).
    public var exceedsRejectionThreshold: Bool {
        rejectedFraction > policy.maxRejectedFraction
    }

    /// Customers per class, every class present (zero included), in class order.
    public var classCounts: [(CustomerClass, Int)] {
        var counts: [CustomerClass: Int] = [:]
        for result in customers { counts[result.customerClass, default: 0] += 1 }
        return CustomerClass.allCases.map { ($0, counts[$0] ?? 0) }
    }

    /// Customers per flag, every flag present (zero included), in catalog order.
    public var flagCounts: [(Flag, Int)] {
        var counts: [Flag: Int] = [:]
        for result in customers {
            for flag in result.flags { counts[flag, default: 0] += 1 }
        }
        return Flag.allCases.map { ($0, counts[$0] ?? 0) }
    }
}

/// Seconds spent in each stage of one run.
public struct StageTimings: Sendable, Codable, Equatable {
    public var ingest: Double = 0
    public var classify: Double = 0
    public var snapshot: Double = 0
    public var reports: Double = 0

    public init() {}
}
