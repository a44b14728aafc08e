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
    /// give it: the orders customers claim are looked up here. Each of its two parts, its
    /// charge and its full refund, is the row that stands for it of every row of every report
    /// that gives that part (`Part.standsOver`): which report was read first never decides.
    public struct Order: Sendable, Equatable {
        /// The row that stands for its charge, if a report gave one.
        var charge: Part?
        /// The row that stands for its full refund, if a report gave one.
        var refund: Part?

        /// The app, as the report names it.
        public var app: String { (charge ?? refund)?.key.app ?? "" }
        /// Whether a report gave its charge.
        public var isCharged: Bool { charge != nil }
        /// When it was charged: the earliest charge the reports give, when its report gave the
        /// second (Google Play's sales reports before 2017 give only the day).
        public var charged: Instant? { charge?.row.charged }
        /// Whether the charge was at a price (a promotion charges nothing).
        public var paid: Bool { (charge?.units.paid ?? 0) > 0 }
        /// Whether a report gave its full refund.
        public var refunded: Bool { refund != nil }

        /// Both reports' parts of one order together, each part the row that stands of both.
        func merged(with other: Order) -> Order {
            Order(charge: Part.standing(charge, other.charge), refund: Part.standing(refund, other.refund))
        }
    }

    /// One row's part of an order: its charge (at `charged`, or at no known second) or its
    /// full refund.
    struct OrderRow: Sendable, Equatable {
        var number: String
        var isRefund: Bool
        var charged: Instant?
        /// Where the row places its part in time: the charge's second, else the first second
        /// of the day its report gives (a refund's own, in the earnings report).
        var placed: Instant
        /// Whether the row is the earnings report's (the order as paid out), which the sales
        /// report's row (the order as charged) stands over at the same second.
        var isEarnings = false
    }

    /// The row that stands for one part of an order, with what it counts and where; kept until
    /// every report is read, then counted once (`settleOrders`).
    struct Part: Sendable, Equatable {
        var row: OrderRow
        var units: Units
        var key: Key
        var title: String
        var days: ClosedRange<String>
        /// The report it is in.
        var file: String
        /// The rows of this part in that report, it among them.
        var rowsInFile = 1

        /// Whether this row stands for its part of the order over `other`, another report's or
        /// the same report's row of that part: an order is bought once, at its earliest
        /// charge, and refunded once, at its earliest refund. So the earlier row stands (a
        /// row that gives only its day placed at the day's first second); at the same second,
        /// the sales report's row over the earnings report's; then the lesser by content,
        /// compared as bytes (a total order: two rows that tie are the same in everything the
        /// count reads); then the report whose path is the lesser. Which was read first never
        /// decides.
        func standsOver(_ other: Part) -> Bool {
            if row.placed != other.row.placed { return row.placed < other.row.placed }
            if row.isEarnings != other.row.isEarnings { return !row.isEarnings }
            return content.lexicographicallyPrecedes(other.content) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }

        /// Everything the count reads of the row, then its report's path, for the last tie-breaks.
        private var content: [String] {
            [
                row.charged.map { "\($0.microseconds)" } ?? "", key.app, key.month, key.country, key.period.rawValue,
                "\(units.paid) \(units.free) \(units.returned)", title, days.lowerBound, days.upperBound, file,
            ]
        }

        /// Of two rows of one part (either may be missing), the one that stands; two of one
        /// report are counted together.
        static func standing(_ one: Part?, _ other: Part?) -> Part? {
            guard let one else { return other }
            guard let other else { return one }
            var kept = one.standsOver(other) ? one : other
            if one.file == other.file { kept.rowsInFile = one.rowsInFile + other.rowsInFile }
            return kept
        }
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
    /// Every copy counted, paid, free and returned together; at most `mostCopies`. A part of
    /// an order counts here as soon as a row gives it, before `settleOrders` puts it in a cell.
    public private(set) var copiesCounted = 0
    /// The title each app's rows give, by store and app id: of several, the least (as bytes),
    /// whatever the order the rows came in.
    public var titles: [Store: [String: String]] = [:]
    /// By report file, as the run names it.
    public var files: [String: FileCount] = [:]
    /// The orders the reports list, by order number.
    public var orders: [String: Order] = [:]
    /// Rows of orders each report gave, until `settleOrders` accounts for them.
    private var orderRows: [String: Int] = [:]

    public init() {}

    public var isEmpty: Bool { files.isEmpty }

    /// Adds `counted` copies, from a row of `file` for the days `first`…`last`, to a cell.
    mutating func add(_ counted: Units, at key: Key, title: String, file: String, days: (String, String)) {
        copiesCounted += counted.paid + counted.free + counted.returned
        place(counted, at: key, title: title, file: file, days: days.0...days.1)
    }

    /// Puts copies counted already (`copiesCounted`) in their cell and their file, from a row
    /// the file counts (`isCounted`), or one it reads and does not count (the cell and the
    /// file's days are the row's, its copies none).
    private mutating func place(
        _ counted: Units, at key: Key, title: String, file: String, days: ClosedRange<String>, isCounted: Bool = true
    ) {
        files[file, default: FileCount()].cover(days.lowerBound, days.upperBound)
        files[file, default: FileCount()].store = key.store
        units[key, default: Units()] = units[key, default: Units()] + counted
        name(key.app, of: key.store, title)
        if isCounted { files[file, default: FileCount()].countedRows += 1 }
        files[file, default: FileCount()].copies = files[file, default: FileCount()].copies + counted
    }

    /// Keeps `title` for an app when it is the least of its titles so far.
    private mutating func name(_ app: String, of store: Store, _ title: String) {
        guard !title.isEmpty else { return }
        if let kept = titles[store]?[app], !title.utf8.lexicographicallyPrecedes(kept.utf8) { return }
        titles[store, default: [:]][app] = title
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

    /// Whether a row gave `row`'s part of its order (its charge, or its refund) already.
    func hasCounted(_ row: OrderRow) -> Bool {
        guard let order = orders[row.number] else { return false }
        return row.isRefund ? order.refunded : order.isCharged
    }

    /// Weighs `row`, a row of `file` giving a part of its order that counts `units` in the cell
    /// `key`, against the rows of that part read before (`Part.standsOver`). Nothing is put in
    /// a cell until every report is read (`settleOrders`); a part no row gave before counts
    /// among `copiesCounted` at once, when `isNew`.
    mutating func offer(
        _ row: OrderRow, units: Units, at key: Key, title: String, file: String, days: (String, String), isNew: Bool
    ) {
        files[file, default: FileCount()].countsOrders = true
        orderRows[file, default: 0] += 1
        if isNew { copiesCounted += units.paid + units.free + units.returned }
        let part = Part(row: row, units: units, key: key, title: title, days: days.0...days.1, file: file)
        var order = orders[row.number] ?? Order()
        if row.isRefund {
            order.refund = Part.standing(order.refund, part)
        } else {
            order.charge = Part.standing(order.charge, part)
        }
        orders[row.number] = order
    }

    /// Counts every order once every report is read: the row that stands for each part in its
    /// cell and its report; each other row of the part not counted, as a "repeated order" in
    /// the report of the row that stands, as an "order in another report" in any other. The
    /// return of an order no report given charges is not counted either: the copy was sold
    /// before the reports begin, so it is not among their paid copies, and its return would
    /// make them fewer than were sold (even fewer than none).
    mutating func settleOrders() {
        var standing: [String: Int] = [:]
        for order in orders.values {
            for part in [order.charge, order.refund].compactMap(\.self) {
                standing[part.file, default: 0] += part.rowsInFile
                if part.rowsInFile > 1 {
                    files[part.file, default: FileCount()].notCounted["repeated order", default: 0] +=
                        part.rowsInFile - 1
                }
                if part.row.isRefund, !order.isCharged {
                    files[part.file, default: FileCount()].notCounted[
                        "refund of an order no report given charges", default: 0] += 1
                    copiesCounted -= part.units.returned
                    place(Units(), at: part.key, title: part.title, file: part.file, days: part.days, isCounted: false)
                } else {
                    place(part.units, at: part.key, title: part.title, file: part.file, days: part.days)
                }
            }
        }
        for (file, rows) in orderRows where rows > standing[file, default: 0] {
            files[file, default: FileCount()].notCounted["order in another report", default: 0] +=
                rows - standing[file, default: 0]
        }
        orderRows = [:]
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
    /// is the same report); each order's parts are the rows that stand of both.
    mutating func merge(_ other: SalesPopulation) {
        units.merge(other.units, uniquingKeysWith: +)
        copiesCounted += other.copiesCounted
        for (store, apps) in other.titles {
            for (app, title) in apps { name(app, of: store, title) }
        }
        files.merge(other.files) { _, later in later }
        orders.merge(other.orders) { kept, later in kept.merged(with: later) }
        orderRows.merge(other.orderRows, uniquingKeysWith: +)
    }

    /// The apps each store's rows counted copies of, in id order.
    public var apps: [Store: [String]] {
        var found: [Store: Set<String>] = [:]
        for key in units.keys { found[key.store, default: []].insert(key.app) }
        return found.mapValues { $0.sorted() }
    }
}

/// Handed on by the stores' sales and earnings reports.
extension SalesPopulation: SourceFinding {}
