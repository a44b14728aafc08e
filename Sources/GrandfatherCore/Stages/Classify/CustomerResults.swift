import GrandfatherEngine

/// Every customer's result, sorted by id: records and activities as folded, and one
/// compact `Verdict` each, taken once (on every core); entitlements are derived when read.
///
/// Keeping results this small means a run holds each customer once, as its record, its
/// activity and 8 bytes of verdict, instead of also holding arrays of flags and grants.
public struct CustomerResults: RandomAccessCollection, Sendable {
    // All three in customer-id order (SPEC §8.25): each report and snapshot pass reads them
    // front to back. Left in the order the ledger's shards hold them, every pass would jump
    // across a million places, three cache misses a customer.
    private let records: [Customer]
    private let activities: [CustomerActivity]
    private let verdicts: [Verdict]
    /// Decides each customer; renderers read grants through it (`Classifier.withGrants`).
    let classifier: Classifier
    /// Counts per class and flag.
    let tally: Tally

    struct Tally: Sendable {
        var classes: [(CustomerClass, Int)]
        var flags: [(Flag, Int)]
        /// Customers carrying at least one `review` flag: the people a person must decide on.
        var review: Int
    }

    /// Classifies every customer; `records` and `activities` (in the same, any, order) are
    /// consumed, moved into id order.
    init(records: consuming [Customer], activities: consuming [CustomerActivity], classifier: Classifier) {
        self.classifier = classifier
        let sortable = consume records
        var activities = consume activities
        // Activities are lent in place from their buffer: a copy of each would retain and
        // release its grants' array, scattered over the heap, a million times.
        let verdicts = activities.withUnsafeBufferPointer { activities in
            let lent = LentBuffer(activities)
            return Parallel.map(count: sortable.count) { classifier.verdict(sortable[$0], lent.element($0).pointee) }
        }
        // Sorted as (eight bytes of the id as one number, place) pairs: comparing two reads
        // nothing else, and whole ids only on a tie. The bytes are the first after what every
        // id begins with: RevenueCat's ids all begin `$RCAnonymousID:`, and with their first
        // eight bytes every pair tied, a sort of 6 s at a million customers instead of 0.3.
        let common = Self.commonPrefixLength(sortable)
        let keys = Parallel.map(count: sortable.count) {
            SortKey(prefix: Self.sortPrefix(sortable[$0].id, after: common), slot: Int32($0))
        }
        let order = Parallel.sorted(
            consume keys,
            by: { left, right in
                if left.prefix != right.prefix { return left.prefix < right.prefix }
                return sortable[Int(left.slot)].id.codePointPrecedes(sortable[Int(right.slot)].id)
            }, then: \.slot)
        self.verdicts = order.map { verdicts[Int($0)] }
        // The sort's closure, which held the records too, is gone: they are moved, not copied.
        var records = consume sortable
        Permutation.apply(order, to: &records, and: &activities)
        self.records = records
        self.activities = activities
        var classes = [Int](repeating: 0, count: CustomerClass.allCases.count)
        var flags = [Int](repeating: 0, count: Flag.allCases.count)
        var review = 0
        let reviewFlags = FlagSet.severity(.review)
        for verdict in verdicts {
            classes[CustomerClass.allCases.firstIndex(of: verdict.customerClass) ?? 0] += 1
            verdict.flags.forEach { flags[Int($0.ordinal)] += 1 }
            if verdict.flags.intersects(reviewFlags) { review += 1 }
        }
        tally = Tally(
            classes: CustomerClass.allCases.enumerated().map { ($1, classes[$0]) },
            flags: Flag.allCases.map { ($0, flags[Int($0.ordinal)]) }, review: review)
    }

    private struct SortKey: Sendable {
        var prefix: UInt64
        var slot: Int32
    }

    /// How many bytes every id begins with.
    private static func commonPrefixLength(_ records: [Customer]) -> Int {
        guard let first = records.first.map({ Array($0.id.utf8) }) else { return 0 }
        let parts = Parallel.mapParts(count: records.count) { range in
            var common = first.count
            for index in range where common > 0 {
                var matched = 0
                for byte in records[index].id.utf8.prefix(common) {
                    guard byte == first[matched] else { break }
                    matched += 1
                }
                common = matched
            }
            return common
        }
        return parts.min() ?? 0
    }

    /// Eight bytes of an id from `start` on, big-endian and zero-padded: for ids that share
    /// their first `start` bytes, a number whose order is the ids' code-point order up to
    /// those bytes.
    private static func sortPrefix(_ id: String, after start: Int) -> UInt64 {
        var prefix: UInt64 = 0
        var count = 0
        for byte in id.utf8.dropFirst(start).prefix(8) {
            prefix = prefix << 8 | UInt64(byte)
            count += 1
        }
        return count == 8 ? prefix : prefix << UInt64(8 * (8 - count))
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(position: Int) -> CustomerResult {
        activities.withUnsafeBufferPointer {
            classifier.classify(records[position], LentBuffer($0).element(position).pointee)
        }
    }

    /// Visits every customer in id order with its verdict and where its activity lies: the
    /// renderers' path, which builds no result per customer (`grants(of:_:)` derives grants).
    ///
    /// The activity is lent (borrowed in place), not handed over: a copy would retain and
    /// release its grants' array, a million times per report.
    func forEachVerdict(
        _ body: (borrowing Customer, Verdict, borrowing CustomerActivity) throws -> Void
    ) rethrows {
        try activities.withUnsafeBufferPointer { activities in
            let lent = LentBuffer(activities)
            for position in records.indices {
                try body(records[position], verdicts[position], lent.element(position).pointee)
            }
        }
    }

    /// Visits the verdict and activity of the customers at the positions in `range`.
    func forEachActivity(in range: Range<Int>, _ body: (Verdict, borrowing CustomerActivity) -> Void) {
        activities.withUnsafeBufferPointer { activities in
            let lent = LentBuffer(activities)
            for slot in range { body(verdicts[slot], lent.element(slot).pointee) }
        }
    }

    /// Reads the activity of the customer at `position` in id order.
    func withActivity<Result>(at position: Int, _ body: (borrowing CustomerActivity) -> Result) -> Result {
        activities.withUnsafeBufferPointer { body(LentBuffer($0).element(position).pointee) }
    }

    /// Reads the customer at `position` in id order with its verdict and its activity.
    func withVerdict<Result>(
        at position: Int, _ body: (borrowing Customer, Verdict, borrowing CustomerActivity) -> Result
    ) -> Result {
        activities.withUnsafeBufferPointer {
            body(records[position], verdicts[position], LentBuffer($0).element(position).pointee)
        }
    }

    /// The grants of a customer, from its verdict and activity.
    func grants(of verdict: Verdict, _ activity: borrowing CustomerActivity) -> [EntitlementGrant] {
        classifier.entitlements(activity, verdict.customerClass)
    }
}
