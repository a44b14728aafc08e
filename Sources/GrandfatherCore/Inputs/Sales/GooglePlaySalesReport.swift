import GrandfatherEngine

/// Google Play's estimated sales report (`sales/salesreport_YYYYMM.csv` in the developer
/// account's Cloud Storage bucket): comma-separated, one row per order, a charge or its
/// refund, with no customer in it. Columns are matched by header name; later versions add
/// columns at the end, and some name a column anew (`Package ID` for `Product ID`), so a
/// column may have several names. Raw values index a row's fields.
enum GooglePlaySalesColumn: Int, CaseIterable, Sendable {
    case orderNumber
    case chargedDate
    case chargedTimestamp
    case financialStatus
    case productTitle
    case productID
    case packageID
    case productType
    case country
    case chargedAmount

    var name: String {
        switch self {
        case .orderNumber: return "Order Number"
        case .chargedDate: return "Order Charged Date"
        case .chargedTimestamp: return "Order Charged Timestamp"
        case .financialStatus: return "Financial Status"
        case .productTitle: return "Product Title"
        case .productID: return "Product ID"
        case .packageID: return "Package ID"
        case .productType: return "Product Type"
        case .country: return "Country of Buyer"
        case .chargedAmount: return "Charged Amount"
        }
    }

    /// The columns without which a row counts nothing (and one of `Product ID`, `Package ID`).
    static let required: [GooglePlaySalesColumn] = [.orderNumber, .chargedDate, .financialStatus, .productType]
}

/// Reads sales report rows into copies of apps: a `paidapp` order charged is a copy sold, its
/// refund a copy returned; in-app products and subscriptions are no copies.
struct GooglePlaySalesRows: SalesRows {
    static let format = InputFormat.googlePlaySales
    static let delimiter = UInt8(ascii: ",")
    static let columns = GooglePlaySalesColumn.allCases.map(\.name)

    static func recognizes(header: [String]) -> Bool {
        let names = Set(header)
        return names.isSuperset(of: GooglePlaySalesColumn.required.map(\.name))
            && (names.contains(GooglePlaySalesColumn.productID.name)
                || names.contains(GooglePlaySalesColumn.packageID.name))
    }

    static func read(_ row: RawRow, against policy: SalesReading) -> SalesRow {
        func text(_ column: GooglePlaySalesColumn) -> String? { row.text(column.rawValue) }
        // The ids and the title a row names pass the one rule (`TextBytes`), as every
        // source's do: the title is shown in every report.
        for (column, kind) in [
            (GooglePlaySalesColumn.orderNumber, TextBytes.Kind.identifier), (.productID, .identifier),
            (.packageID, .identifier), (.productTitle, .value),
        ] {
            if let problem = row.problem(column.rawValue, as: kind) {
                return .rejected(column.name, problem.reason(column.name))
            }
        }
        guard let type = text(.productType) else {
            return .rejected(GooglePlaySalesColumn.productType.name, "Product Type is empty")
        }
        // `paidapp` in the reports; `Paid app` in newer files' wording.
        switch type.lowercased().filter({ $0 != " " && $0 != "_" }) {
        case "paidapp": break
        case "inapp", "onetimeproduct": return .notCounted("in-app product")
        case "subscription": return .notCounted("subscription")
        default: return .notCounted("product type \(Excerpt.of(type)) (not known)")
        }
        guard let app = text(.productID) ?? text(.packageID) else {
            return .rejected(GooglePlaySalesColumn.productID.name, "Product ID is empty")
        }
        if policy.sales.rulesOut([app]) { return .notCounted("another app") }
        var copies = SalesPopulation.Units()
        switch text(.financialStatus)?.lowercased() {
        // A charge of nothing (a promotion) is a copy at no price.
        case "charged": if Self.isFree(text(.chargedAmount)) { copies.free = 1 } else { copies.paid = 1 }
        case "refund", "refunded": copies.returned = 1
        // A partial refund leaves the buyer the app.
        case "partial refund": return .notCounted("partial refund")
        case let status?: return .notCounted("financial status \(Excerpt.of(status)) (not known)")
        case nil: return .rejected(GooglePlaySalesColumn.financialStatus.name, "Financial Status is empty")
        }
        guard let day = Self.day(text(.chargedDate)) else {
            return .rejected(
                GooglePlaySalesColumn.chargedDate.name,
                "Order Charged Date '\(Excerpt.of(text(.chargedDate) ?? ""))' is not YYYY-MM-DD")
        }
        // The charge's own second, when the report gives it: then no order spans the cutover.
        var period = ReportDay.period(from: day, to: day, against: policy.cutover)
        // Without the second, an order claimed is placed at its day's start, unless the day
        // holds the cutover: then it has no date to place it (`ClaimedOrderRules`).
        var charged: Instant? = period == .spansCutover ? nil : day.start
        // Where the row's part of its order lies in time, to weigh it against the order's other
        // rows: the second, else the day's start.
        var placed = day.start
        if let stamp = text(.chargedTimestamp) {
            guard let seconds = Int64(stamp), let instant = Self.instant(seconds: seconds),
                instant >= day.start, instant < day.next
            else {
                return .rejected(
                    GooglePlaySalesColumn.chargedTimestamp.name,
                    "Order Charged Timestamp '\(Excerpt.of(stamp))' is not Unix seconds within the Order Charged Date")
            }
            period = instant < policy.cutover ? .before : .after
            charged = instant
            placed = instant
        }
        var country = ""
        if let given = text(.country) {
            guard let code = CountryCodes.twoLetter(given)
            else {
                return .rejected(
                    GooglePlaySalesColumn.country.name,
                    "Country of Buyer '\(Excerpt.of(given))' is not an ISO 3166-1 country code")
            }
            country = code
        }
        guard let order = text(.orderNumber) else {
            return .rejected(GooglePlaySalesColumn.orderNumber.name, "Order Number is empty")
        }
        let key = SalesPopulation.Key(store: .googlePlay, app: app, month: day.month, country: country, period: period)
        let isRefund = copies.returned > 0
        return .counted(
            key, copies, title: text(.productTitle) ?? "", days: (day.text, day.text),
            order: .init(number: order, isRefund: isRefund, charged: isRefund ? nil : charged, placed: placed))
    }

    /// Whether an amount (`3.99`, `1,234.50`) is zero; an amount absent or unreadable is not.
    static func isFree(_ amount: String?) -> Bool {
        guard let amount, let value = Double(amount.filter { $0 != "," && $0 != " " }) else { return false }
        return value == 0
    }

    private static func instant(seconds: Int64) -> Instant? {
        guard (0...253_402_300_799).contains(seconds) else { return nil }
        return Instant(seconds: seconds)
    }

    /// A report day, `YYYY-MM-DD`, in UTC.
    static func day(_ text: String?) -> ReportDay? {
        guard let fields = ReportDay.fields(text, separator: "-", widths: [4, 2, 2]) else { return nil }
        return ReportDay(
            year: fields[0], month: fields[1], day: fields[2], in: SalesPopulation.Store.googlePlay.reportZone)
    }
}
