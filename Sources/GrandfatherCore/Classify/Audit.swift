/// The result of classifying every customer: what every report and the snapshot render.
public struct Audit: Sendable {
    public var policy: Policy
    public var asOf: Instant
    /// One report per input file, in command-line order.
    public var inputs: [InputReport]
    /// Every rejected row, in input order then line order.
    public var rejections: [Rejection]
    /// Every customer, sorted by id in code-point order (SPEC §8.25), classified on access.
    public var customers: CustomerResults
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
    public var classCounts: [(CustomerClass, Int)] { customers.tally.classes }

    /// Customers per flag, every flag present (zero included), in catalog order.
    public var flagCounts: [(Flag, Int)] { customers.tally.flags }
}

/// Every customer's result, sorted by id, computed from the folded records when read.
///
/// Keeping results lazy means a run holds each customer once, as its record and its
/// activity, instead of also holding a result per customer; renderers classify as they go.
public struct CustomerResults: RandomAccessCollection, Sendable {
    private let records: [Customer]
    private let activities: [CustomerActivity]
    /// Positions in `records`, sorted by customer id.
    private let order: [Int32]
    private let classifier: Classifier
    /// Counts per class and flag, taken once.
    let tally: Tally

    struct Tally: Sendable {
        var classes: [(CustomerClass, Int)]
        var flags: [(Flag, Int)]
    }

    init(records: [Customer], activities: [CustomerActivity], classifier: Classifier) {
        self.records = records
        self.activities = activities
        self.classifier = classifier
        var order = (0..<Int32(records.count)).map { $0 }
        order.sort { records[Int($0)].id.codePointPrecedes(records[Int($1)].id) }
        self.order = order
        var classes = [Int](repeating: 0, count: CustomerClass.allCases.count)
        var flags = [Int](repeating: 0, count: Flag.allCases.count)
        let classIndex = Dictionary(uniqueKeysWithValues: CustomerClass.allCases.enumerated().map { ($1, $0) })
        let flagIndex = Dictionary(uniqueKeysWithValues: Flag.allCases.enumerated().map { ($1, $0) })
        for position in records.indices {
            let result = classifier.classify(records[position], activities[position])
            classes[classIndex[result.customerClass] ?? 0] += 1
            for flag in result.flags { flags[flagIndex[flag] ?? 0] += 1 }
        }
        tally = Tally(
            classes: CustomerClass.allCases.enumerated().map { ($1, classes[$0]) },
            flags: Flag.allCases.enumerated().map { ($1, flags[$0]) })
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }

    public subscript(position: Int) -> CustomerResult {
        let slot = Int(order[position])
        return classifier.classify(records[slot], activities[slot])
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
