import GrandfatherEngine

/// What the stores' own sales reports count: copies of the app sold, with no customer
/// attached, by store, app, month and country, and where each report period falls against
/// the cutover. A population fact, not a customer fact: nothing here reaches the ledger, and
/// the reports set it beside the customers the audit grandfathered (`PopulationReconciliation`).
public struct SalesPopulation: Sendable, Equatable {
    /// The store whose report counted the copies.
    public enum Store: String, Sendable, Codable, CaseIterable, Comparable {
        case appStore = "app_store"
        case googlePlay = "google_play"

        /// The platforms of the customers a store's copies are set against.
        public func sells(to platform: Platform) -> Bool {
            switch self {
            case .appStore: return platform.isApple
            case .googlePlay: return platform == .android
            }
        }

        /// The zone whose days the store's reports count in: App Store Connect's are Pacific
        /// Time for a worldwide account (a territory's own zone otherwise), Google Play's
        /// financial data is UTC.
        public var reportZone: WallClockZone? {
            switch self {
            case .appStore: return WallClockZone(identifier: "America/Los_Angeles")
            case .googlePlay: return WallClockZone(identifier: "UTC")
            }
        }

        /// The customers a store's copies are set against, as the reports name them.
        public var customers: String {
            switch self {
            case .appStore: return "on Apple platforms"
            case .googlePlay: return "on Android"
            }
        }

        public var title: String {
            switch self {
            case .appStore: return "App Store"
            case .googlePlay: return "Google Play"
            }
        }

        public static func < (lhs: Store, rhs: Store) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// Where a report's period lies against the cutover instant. A period that holds the
    /// cutover (a daily report of the cutover's day, a monthly report of its month) cannot be
    /// split: its copies are counted apart, never guessed into one side.
    public enum Period: String, Sendable, Codable, CaseIterable, Comparable {
        case before
        case spansCutover = "spans_cutover"
        case after

        public static func < (lhs: Period, rhs: Period) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// One cell of the count.
    public struct Key: Hashable, Sendable, Comparable {
        public var store: Store
        /// The app, as the report names it (Apple Identifier; Google Play package name).
        public var app: String
        /// The month the period begins in, `YYYY-MM`, in the report's own time zone.
        public var month: String
        /// ISO 3166-1 alpha-2, upper case, as the reports give it; empty when a row gives none.
        public var country: String
        public var period: Period

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.store, lhs.app, lhs.month, lhs.country, lhs.period)
                < (rhs.store, rhs.app, rhs.month, rhs.country, rhs.period)
        }
    }

    /// Copies in one cell.
    public struct Units: Sendable, Equatable {
        /// Copies sold at a price.
        public var paid = 0
        /// Copies given at no price (promo codes, a free period of the app).
        public var free = 0
        /// Copies returned or refunded (the reports' negative units, Google's refunds).
        public var returned = 0

        public init(paid: Int = 0, free: Int = 0, returned: Int = 0) {
            self.paid = paid
            self.free = free
            self.returned = returned
        }

        /// Paid copies net of returns.
        public var net: Int { paid - returned }

        public static func + (lhs: Units, rhs: Units) -> Units {
            Units(paid: lhs.paid + rhs.paid, free: lhs.free + rhs.free, returned: lhs.returned + rhs.returned)
        }
    }

    /// What one report file gave: how many of its rows counted copies, and the rows it held
    /// that the count cannot use, by what they were ("update", "in-app purchase"…), which
    /// `validate` explains.
    public struct FileCount: Sendable, Equatable {
        public var countedRows = 0
        public var copies = Units()
        public var notCounted: [String: Int] = [:]
        /// The first and last day (`YYYY-MM-DD`) of the periods its counted rows cover.
        public var days: ClosedRange<String>?
        /// The store whose copies it counted.
        public var store: Store?
        /// The same bytes as a file read before it: its rows are counted once, there.
        public var repeats: String?
        /// Whether its rows are orders, each counted once whichever report lists it (Google
        /// Play's): its periods may overlap another's without counting a copy twice.
        public var countsOrders = false

        public init() {}

        mutating func cover(_ first: String, _ last: String) {
            days = days.map { min($0.lowerBound, first)...max($0.upperBound, last) } ?? first...last
        }
    }

    /// A store order that the reports list by its number (Google Play's `GPA.…`), as they
    /// give it: the orders customers claim are looked up here.
    public struct Order: Sendable, Equatable {
        public static func == (lhs: Order, rhs: Order) -> Bool {
            (lhs.app, lhs.isCharged, lhs.charged, lhs.paid, lhs.refunded)
                == (rhs.app, rhs.isCharged, rhs.charged, rhs.paid, rhs.refunded)
                && lhs.refundCounted?.key == rhs.refundCounted?.key
                && lhs.refundCounted?.file == rhs.refundCounted?.file
        }

        /// The app, as the report names it.
        public var app: String
        /// Whether a report gave its charge.
        public var isCharged = false
        /// When it was charged, when the report gave the second (Google Play's sales reports
        /// before 2017 give only the day).
        public var charged: Instant?
        /// Whether the charge was at a price (a promotion charges nothing).
        public var paid = false
        /// Whether a report gave its full refund.
        public var refunded = false
        /// Where its refund was counted: the cell and the report file.
        var refundCounted: (key: Key, file: String)?

        public init(app: String) { self.app = app }

        /// Both reports' parts of one order together, the first's where both give one.
        func merged(with later: Order) -> Order {
            var order = self
            if !order.isCharged {
                (order.isCharged, order.charged, order.paid) = (later.isCharged, later.charged, later.paid)
            }
            order.refunded = order.refunded || later.refunded
            order.refundCounted = order.refundCounted ?? later.refundCounted
            return order
        }
    }

    /// One row's part of an order: its charge (at `charged`, or at no known second) or its
    /// full refund.
    struct OrderRow: Sendable {
        var number: String
        var isRefund: Bool
        var charged: Instant?
    }

    /// The groups of one store's report files whose counted periods overlap, each in path
    /// order, the groups in the order of their first path: copies in them may be counted more
    /// than once (a monthly report given with the same month's daily reports). Reports of orders
    /// are in none: each order counts once, whichever lists it. Found in one sweep over the
    /// files by first day, so a thousand reports of one day are one group, not half a million
    /// pairs.
    public var overlappingFiles: [[String]] {
        var groups: [[String]] = []
        for store in Store.allCases {
            let covered = files.compactMap { path, file in
                file.store == store && !file.countsOrders ? file.days.map { (path, $0) } : nil
            }.sorted { ($0.1.lowerBound, $0.0) < ($1.1.lowerBound, $1.0) }
            var group: [String] = []
            var reaches = ""
            for (path, days) in covered {
                if !group.isEmpty, days.lowerBound > reaches {
                    if group.count > 1 { groups.append(group.sorted()) }
                    group = []
                }
                reaches = group.isEmpty ? days.upperBound : max(reaches, days.upperBound)
                group.append(path)
            }
            if group.count > 1 { groups.append(group.sorted()) }
        }
        return groups.sorted { $0[0] < $1[0] }
    }

    /// The most copies a run counts over every report, paid, free and returned together:
    /// 2^53, the largest count a JSON reader holds exactly. A row that would carry the count
    /// past it is rejected at the door, so that no sum or difference of counts made later (by
    /// cell, month, store, or against the customers) can overflow.
    public static let mostCopies = 1 << 53

    /// Copies of the app by cell.
    public var units: [Key: Units] = [:]
    /// Every copy counted, paid, free and returned together; at most `mostCopies`.
    public private(set) var copiesCounted = 0
    /// The title each app's rows give, by store and app id.
    public var titles: [Store: [String: String]] = [:]
    /// By report file, as the run names it.
    public var files: [String: FileCount] = [:]
    /// The orders the reports list, by order number.
    public var orders: [String: Order] = [:]

    public init() {}

    public var isEmpty: Bool { files.isEmpty }

    /// Adds `counted` copies, from a row of `file` for the days `first`…`last`, to a cell.
    mutating func add(_ counted: Units, at key: Key, title: String, file: String, days: (String, String)) {
        files[file, default: FileCount()].cover(days.0, days.1)
        files[file, default: FileCount()].store = key.store
        units[key, default: Units()] = units[key, default: Units()] + counted
        copiesCounted += counted.paid + counted.free + counted.returned
        if titles[key.store]?[key.app] == nil, !title.isEmpty { titles[key.store, default: [:]][key.app] = title }
        files[file, default: FileCount()].countedRows += 1
        files[file, default: FileCount()].copies = files[file, default: FileCount()].copies + counted
    }

    /// Sets a cell's copies as a record of them says (`SalesPopulationRecord`); `false`, with
    /// nothing set, when they are below zero or would carry the copies counted past `mostCopies`.
    mutating func restore(_ counted: Units, at key: Key) -> Bool {
        let parts = [counted.paid, counted.free, counted.returned]
        guard parts.allSatisfy({ $0 >= 0 && $0 <= Self.mostCopies }), units[key] == nil else { return false }
        let copies = parts.reduce(0, +)
        guard copiesCounted <= Self.mostCopies - copies else { return false }
        units[key] = counted
        copiesCounted += copies
        return true
    }

    /// Whether `row`'s part of its order (its charge, or its refund) is counted already.
    func hasCounted(_ row: OrderRow) -> Bool {
        guard let order = orders[row.number] else { return false }
        return row.isRefund ? order.refunded : order.isCharged
    }

    /// Notes `row`'s part of its order, of `app`, which counted `units` in the cell `key`.
    mutating func note(_ row: OrderRow, of app: String, units: Units, at key: Key, file: String) {
        files[file, default: FileCount()].countsOrders = true
        var order = orders[row.number] ?? Order(app: app)
        if row.isRefund {
            order.refunded = true
            order.refundCounted = (key, file)
        } else {
            order.isCharged = true
            order.charged = row.charged
            order.paid = units.paid > 0
        }
        orders[row.number] = order
    }

    /// Takes back the returns of orders no report given charges, once every report is read: the
    /// copy was sold before the reports begin, so it is not among their paid copies, and its
    /// return would make them fewer than were sold (even fewer than none). Each such row is
    /// noted as not counted instead.
    mutating func settleRefunds() {
        for (number, order) in orders where order.refunded && !order.isCharged {
            guard let (key, file) = order.refundCounted else { continue }
            units[key]?.returned -= 1
            files[file]?.copies.returned -= 1
            files[file]?.countedRows -= 1
            files[file]?.notCounted["refund of an order no report given charges", default: 0] += 1
            copiesCounted -= 1
            orders[number]?.refundCounted = nil
        }
    }

    /// Notes a row of `file` that counted no copies, and what it was.
    mutating func skip(_ file: String, as what: String) {
        files[file, default: FileCount()].notCounted[what, default: 0] += 1
    }

    /// Notes a report file that counted nothing yet, so that it is described.
    mutating func note(_ file: String) {
        if files[file] == nil { files[file] = FileCount() }
    }

    /// Both counts together (a file named in both keeps the later count: a path given twice
    /// is the same report).
    mutating func merge(_ other: SalesPopulation) {
        units.merge(other.units, uniquingKeysWith: +)
        copiesCounted += other.copiesCounted
        for (store, apps) in other.titles { titles[store, default: [:]].merge(apps) { kept, _ in kept } }
        files.merge(other.files) { _, later in later }
        orders.merge(other.orders) { kept, later in kept.merged(with: later) }
    }

    /// The apps each store's rows counted copies of, in id order.
    public var apps: [Store: [String]] {
        var found: [Store: Set<String>] = [:]
        for key in units.keys { found[key.store, default: []].insert(key.app) }
        return found.mapValues { $0.sorted() }
    }
}
