import GrandfatherEngine

/// App Store Connect's Summary Sales Report (Sales and Trends; `reportType=SALES`,
/// `reportSubType=SUMMARY`): tab-separated, one row per app, product type, country, price and
/// period, with no customer in it. Columns are matched by header name, in any order (the
/// report's versions add columns at the end); these are the ones the count reads. Raw values
/// index a row's fields.
enum AppleSalesColumn: Int, CaseIterable, Sendable {
    case sku
    case title
    case productTypeIdentifier
    case units
    case beginDate
    case endDate
    case countryCode
    case appleIdentifier
    case customerPrice
    case promoCode
    case cmb

    var name: String {
        switch self {
        case .sku: return "SKU"
        case .title: return "Title"
        case .productTypeIdentifier: return "Product Type Identifier"
        case .units: return "Units"
        case .beginDate: return "Begin Date"
        case .endDate: return "End Date"
        case .countryCode: return "Country Code"
        case .appleIdentifier: return "Apple Identifier"
        case .customerPrice: return "Customer Price"
        case .promoCode: return "Promo Code"
        case .cmb: return "CMB"
        }
    }

    /// The columns without which a row counts nothing: a header lacking one is not read.
    static let required: [AppleSalesColumn] = [
        .productTypeIdentifier, .units, .beginDate, .endDate, .countryCode, .appleIdentifier,
    ]
}

/// What an App Store product type identifier says a row counts (App Store Connect Help,
/// "Product type identifiers"): a first download of an app, free or paid, is a copy;
/// updates, re-downloads, bundles and in-app purchases are not.
enum AppleProductType: Equatable {
    /// A first download of the app, as a copy of it: the row's price tells paid from free.
    case app
    /// A row the count reads and cannot use, and what it is.
    case notCounted(String)

    init(identifier: String) {
        switch identifier {
        // iPhone, universal, iPad and Mac apps; the custom (B2B) apps, which are always paid.
        case "1", "1F", "1T", "F1", "1E", "1EP", "1EU": self = .app
        case "7", "7F", "7T", "F7": self = .notCounted("update")
        case "3", "3F", "3T", "F3": self = .notCounted("re-download")
        // A bundle holds several apps: its units are not copies of one of them.
        case "1-B", "F1-B": self = .notCounted("app bundle")
        // IAC, a free subscription, is in older reports only.
        case "IA1", "IA9", "IAY", "IAC", "FI1", "IA1-M", "IA9-M", "IAY-M", "IAC-M":
            self = .notCounted("in-app purchase")
        case "IA3": self = .notCounted("restored in-app purchase")
        default: self = .notCounted("product type \(Excerpt.of(identifier)) (not known)")
        }
    }
}

/// Reads Summary Sales Report rows into copies of apps.
struct AppleSalesRows: SalesRows {
    static let format = InputFormat.appleSales
    static let delimiter = UInt8(ascii: "\t")
    /// Apple's reports are never quoted: a title may begin with `"`.
    static let isQuoted = false
    static let columns = AppleSalesColumn.allCases.map(\.name)

    /// A day's report runs from midnight to midnight in Pacific Time, for a worldwide account.
    static let zone = SalesPopulation.Store.appStore.reportZone

    /// Whether a header is a Summary Sales Report's: it names every required column.
    static func recognizes(header: [String]) -> Bool {
        Set(header).isSuperset(of: AppleSalesColumn.required.map(\.name))
    }

    static func read(_ row: RawRow, against policy: SalesReading) -> SalesRow {
        func text(_ column: AppleSalesColumn) -> String? { row.text(column.rawValue) }
        // The ids and the title a row names pass the one rule (`TextBytes`), as every
        // source's do: the title is shown in every report.
        for (column, kind) in [
            (AppleSalesColumn.appleIdentifier, TextBytes.Kind.identifier), (.sku, .identifier), (.title, .value),
        ] {
            if let problem = row.problem(column.rawValue, as: kind) {
                return .rejected(column.name, problem.reason(column.name))
            }
        }
        guard let identifier = text(.productTypeIdentifier) else {
            return .rejected(AppleSalesColumn.productTypeIdentifier.name, "Product Type Identifier is empty")
        }
        guard case .app = AppleProductType(identifier: identifier) else {
            if case .notCounted(let what) = AppleProductType(identifier: identifier) { return .notCounted(what) }
            return .notCounted(identifier)
        }
        guard let app = text(.appleIdentifier) else {
            return .rejected(AppleSalesColumn.appleIdentifier.name, "Apple Identifier is empty")
        }
        if policy.sales.rulesOut([app] + [text(.sku)].compactMap { $0 }) {
            return .notCounted("another app")
        }
        // A bundle's credit for an app bought before (CMB-C) is negative units that are no return.
        if text(.cmb) == "CMB-C" { return .notCounted("bundle credit") }
        guard let units = Self.units(text(.units)) else {
            return .rejected(
                AppleSalesColumn.units.name, "Units '\(Excerpt.of(text(.units) ?? ""))' is not a whole number")
        }
        guard let begins = Self.day(text(.beginDate)) else {
            return .rejected(
                AppleSalesColumn.beginDate.name, "Begin Date '\(Excerpt.of(text(.beginDate) ?? ""))' is not MM/DD/YYYY")
        }
        guard let ends = Self.day(text(.endDate)), ends.start >= begins.start else {
            return .rejected(
                AppleSalesColumn.endDate.name,
                "End Date '\(Excerpt.of(text(.endDate) ?? ""))' is not MM/DD/YYYY on or after Begin Date")
        }
        guard let country = text(.countryCode).flatMap(CountryCodes.twoLetter) else {
            return .rejected(
                AppleSalesColumn.countryCode.name,
                "Country Code '\(Excerpt.of(text(.countryCode) ?? ""))' is not an ISO 3166-1 country code")
        }
        let period = ReportDay.period(from: begins, to: ends, against: policy.cutover)
        var counted = SalesPopulation.Units()
        if units < 0 {
            counted.returned = -units
        } else if Self.isPaid(price: text(.customerPrice), promoCode: text(.promoCode)) {
            counted.paid = units
        } else {
            counted.free = units
        }
        let key = SalesPopulation.Key(
            store: .appStore, app: app, month: begins.month, country: country, period: period)
        return .counted(key, counted, title: text(.title) ?? "", days: (begins.text, ends.text))
    }

    /// Units as the report writes them (a decimal, `12` or `12.00`), when whole.
    static func units(_ text: String?) -> Int? {
        guard let text else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int(parts[0]), abs(whole) < 1 << 40 else { return nil }
        if parts.count == 2 { guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 == "0" }) else { return nil } }
        return whole
    }

    /// A copy is paid when its price is above zero and no promo code gave it.
    private static func isPaid(price: String?, promoCode: String?) -> Bool {
        if let promoCode, promoCode.contains(where: { $0 != " " }) { return false }
        guard let price, let value = Double(price.filter { $0 != " " }) else { return false }
        return value > 0
    }

    /// A report day, `MM/DD/YYYY`, in Pacific Time.
    static func day(_ text: String?) -> ReportDay? {
        guard let fields = ReportDay.fields(text, separator: "/", widths: [2, 2, 4]) else { return nil }
        return ReportDay(year: fields[2], month: fields[0], day: fields[1], in: zone)
    }
}
