/// What changed since the previous run (SPEC §6): one entry per customer whose class,
/// flags or entitlements differ, a from→to class matrix over every customer, and how often
/// each flag was added or removed.
public struct ChangeSet: Sendable {
    /// What the run was compared with.
    public enum Basis: Sendable, Equatable {
        /// No previous run: the output folder has no `latest` and none was named.
        case firstRun
        /// Compared with the snapshot at `path`, written by run `runID`.
        case compared(path: String, runID: String?)
        /// A previous run exists but could not be read; the reason is reported, not fatal.
        case unreadable(path: String, reason: String)
    }

    public var basis: Basis
    /// Changed customers, in id order.
    public var changes: [CustomerChange]
    /// Customers by class before and after, every customer of either run counted once.
    public var matrix: ClassMatrix
    /// Customers that gained each flag, by flag code, codes sorted.
    public var flagsAdded: [(String, Int)]
    /// Customers that lost each flag.
    public var flagsRemoved: [(String, Int)]

    /// Nothing compared, for a first run or an unreadable previous one.
    public static func nothing(_ basis: Basis) -> ChangeSet {
        ChangeSet(basis: basis, changes: [], matrix: ClassMatrix(), flagsAdded: [], flagsRemoved: [])
    }

    public var wasCompared: Bool {
        if case .compared = basis { return true }
        return false
    }
}

/// How one customer differs from the previous run.
public struct CustomerChange: Sendable, Equatable {
    public var customerID: String
    /// `nil`: the customer is new to this run.
    public var from: CustomerClass?
    /// `nil`: the customer is gone from this run's inputs.
    public var to: CustomerClass?
    public var flagsAdded: [String]
    public var flagsRemoved: [String]
    /// `entitlement:source` pairs: what the customer may use and why. Transaction ids and
    /// end dates are left out on purpose: every renewal changes them, and a nightly list
    /// of every renewing subscriber would bury the changes a person must look at.
    public var entitlementsAdded: [String]
    public var entitlementsRemoved: [String]
}

/// Customers counted by (class before, class after); `nil` is "absent from that run".
public struct ClassMatrix: Sendable, Equatable {
    /// The rows and columns in order: every class, then absent.
    public static let axis: [CustomerClass?] = CustomerClass.allCases.map { $0 } + [nil]

    private var counts = [Int](repeating: 0, count: axis.count * axis.count)

    public init() {}

    public func count(from: CustomerClass?, to: CustomerClass?) -> Int {
        counts[Self.index(from) * Self.axis.count + Self.index(to)]
    }

    mutating func add(from: CustomerClass?, to: CustomerClass?) {
        counts[Self.index(from) * Self.axis.count + Self.index(to)] += 1
    }

    private static func index(_ customerClass: CustomerClass?) -> Int {
        guard let customerClass else { return axis.count - 1 }
        return CustomerClass.allCases.firstIndex(of: customerClass) ?? 0
    }

    /// The label of an axis entry in reports.
    public static func label(_ customerClass: CustomerClass?) -> String {
        customerClass?.rawValue ?? "absent"
    }
}

/// The previous run a new one is compared with, or why there is none.
public enum PreviousRun: Sendable {
    case snapshot(PreviousSnapshot)
    /// `.firstRun`, or `.unreadable` with the reason (reported, and the run goes on).
    case none(ChangeSet.Basis)

    var snapshot: PreviousSnapshot? {
        if case .snapshot(let snapshot) = self { return snapshot }
        return nil
    }
}
