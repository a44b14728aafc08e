import GrandfatherEngine

/// Google Play's earnings report (`earnings/earnings_YYYYMM_<profile>-<n>.zip` in the
/// developer account's Cloud Storage bucket): comma-separated, one row per money movement of
/// an order (its charge, Google's fee, tax, and each one's refund), with no customer in it.
/// Columns are matched by header name in any case (the report writes `Product id` and
/// `Sku Id`); later versions add columns at the end. Raw values index a row's fields.
enum GooglePlayEarningsColumn: Int, CaseIterable, Sendable {
    case description
    case transactionDate
    case transactionTime
    case transactionType
    case refundType
    case productTitle
    case productID
    case productType
    case skuID
    case buyerCountry
    case buyerAmount

    var name: String {
        switch self {
        case .description: return "Description"
        case .transactionDate: return "Transaction Date"
        case .transactionTime: return "Transaction Time"
        case .transactionType: return "Transaction Type"
        case .refundType: return "Refund Type"
        case .productTitle: return "Product Title"
        case .productID: return "Product id"
        case .productType: return "Product Type"
        case .skuID: return "Sku Id"
        case .buyerCountry: return "Buyer Country"
        case .buyerAmount: return "Amount (Buyer Currency)"
        }
    }

    /// The columns without which a row counts nothing: a header lacking one is not read.
    static let required: [GooglePlayEarningsColumn] = [
        .description, .transactionDate, .transactionTime, .transactionType, .productID, .productType,
    ]
}

/// Reads earnings report rows into copies of apps: a paid app's `Charge` is a copy sold, its
/// full `Charge refund` a copy returned. Fees and taxes are the same orders' other money,
/// and in-app products and subscriptions are no copies.
///
/// Which rows are the paid app: the report's `Product Type` is a number, and public readers
/// disagree on what `1` means (an in-app product, or a subscription), but in both readings
/// `0` holds the app's own sale, and only an in-app product or a subscription names a
/// `Sku Id`. A row is a copy of the app when its type is `0` and it names no SKU (or, in a
/// report that spells types out, `paidapp`).
struct GooglePlayEarningsRows: SalesRows {
    static let format = InputFormat.googlePlayEarnings
    static let delimiter = UInt8(ascii: ",")
    static let columns = GooglePlayEarningsColumn.allCases.map(\.name)

    static func recognizes(header: [String]) -> Bool {
        Set(header).isSuperset(of: GooglePlayEarningsColumn.required.map(\.name))
    }

    static func read(_ row: RawRow, against policy: SalesReading) -> SalesRow {
        func text(_ column: GooglePlayEarningsColumn) -> String? { row.text(column.rawValue) }
        // The ids and the title a row names pass the one rule (`TextBytes`), as every
        // source's do: the title is shown in every report.
        for (column, kind) in [
            (GooglePlayEarningsColumn.description, TextBytes.Kind.identifier), (.productID, .identifier),
            (.productTitle, .value),
        ] {
            if let problem = row.problem(column.rawValue, as: kind) {
                return .rejected(column.name, problem.reason(column.name))
            }
        }
        guard let transaction = text(.transactionType) else {
            return .rejected(GooglePlayEarningsColumn.transactionType.name, "Transaction Type is empty")
        }
        let isRefund: Bool
        switch transaction.lowercased() {
        case "charge": isRefund = false
        case "charge refund":
            // A partial refund leaves the buyer the app.
            if text(.refundType)?.lowercased() == "partial" { return .notCounted("partial refund") }
            isRefund = true
        case "google fee", "google fee refund": return .notCounted("Google fee")
        case "tax", "tax refund": return .notCounted("tax")
        default: return .notCounted("transaction type \(Excerpt.of(transaction)) (not known)")
        }
        switch Self.product(type: text(.productType), sku: text(.skuID)) {
        case .app: break
        case .notCounted(let what): return .notCounted(what)
        }
        guard let app = text(.productID) else {
            return .rejected(GooglePlayEarningsColumn.productID.name, "Product id is empty")
        }
        if policy.sales.rulesOut([app]) { return .notCounted("another app") }
        guard let date = text(.transactionDate), let time = text(.transactionTime),
            let instant = Self.instant(date: date, time: time)
        else {
            return .rejected(
                GooglePlayEarningsColumn.transactionTime.name,
                "Transaction Date and Time '\(Excerpt.of(text(.transactionDate) ?? "")) "
                    + "\(Excerpt.of(text(.transactionTime) ?? ""))' are not like 'Dec 1, 2019' and '1:59:55 AM PST'")
        }
        var country = ""
        if let given = text(.buyerCountry) {
            guard let code = CountryCodes.twoLetter(given) else {
                return .rejected(
                    GooglePlayEarningsColumn.buyerCountry.name,
                    "Buyer Country '\(Excerpt.of(given))' is not an ISO 3166-1 country code")
            }
            country = code
        }
        guard let order = text(.description) else {
            return .rejected(GooglePlayEarningsColumn.description.name, "Description (the order number) is empty")
        }
        var copies = SalesPopulation.Units()
        if isRefund {
            copies.returned = 1
        } else if GooglePlaySalesRows.isFree(text(.buyerAmount)) {
            // A charge of nothing (a promotion) is a copy at no price.
            copies.free = 1
        } else {
            copies.paid = 1
        }
        // Google Play counts its financial days in UTC, as its sales report does.
        let days = instant.wholeSeconds.floorDivided(by: 86_400)
        let (year, month, day) = CivilDate.fromDays(days)
        let monthText = String(format: "%04d-%02d", Int(year), Int(month))
        let dayText = monthText + String(format: "-%02d", Int(day))
        let key = SalesPopulation.Key(
            store: .googlePlay, app: app, month: monthText, country: country,
            period: instant < policy.cutover ? .before : .after)
        return .counted(
            key, copies, title: text(.productTitle) ?? "", days: (dayText, dayText),
            order: .init(
                number: order, isRefund: isRefund, charged: isRefund ? nil : instant, placed: instant, isEarnings: true)
        )
    }

    /// What a row's product is: the app itself, or a product the count does not use.
    private enum Product { case app, notCounted(String) }

    private static func product(type: String?, sku: String?) -> Product {
        let namesSKU = sku.map { $0.contains { $0 != " " } } ?? false
        switch type?.lowercased().filter({ $0 != " " && $0 != "_" }) {
        case "0", "paidapp": return namesSKU ? .notCounted("in-app product") : .app
        case "1": return .notCounted("in-app product or subscription")
        case "inapp", "onetimeproduct": return .notCounted("in-app product")
        case "subscription": return .notCounted("subscription")
        case let other?: return .notCounted("product type \(Excerpt.of(other)) (not known)")
        case nil: return .notCounted("product type not given")
        }
    }

    /// The instant of a transaction written as Google's earnings report writes it: the date
    /// `Dec 1, 2019` and the time `1:59:55 AM PST` (or `13:59:55 PDT`), Pacific wall time
    /// whose zone the time names. `nil` for anything else.
    static func instant(date: String, time: String) -> Instant? {
        let dateParts = date.split(separator: " ")
        guard dateParts.count == 3, dateParts[1].hasSuffix(","),
            let month = months.firstIndex(of: dateParts[0].lowercased()),
            let day = digits(dateParts[1].dropLast(), widths: 1...2),
            let year = digits(dateParts[2], widths: 4...4), year >= 1,
            (1...CivilDate.daysInMonth(year: year, month: Int64(month + 1))).contains(day)
        else { return nil }
        var timeParts = time.split(separator: " ")
        guard let zone = timeParts.popLast(), let offset = zoneOffsets[zone.uppercased()] else { return nil }
        var twelveHour: Int64?
        if timeParts.count == 2 {
            switch timeParts.removeLast().uppercased() {
            case "AM": twelveHour = 0
            case "PM": twelveHour = 12
            default: return nil
            }
        }
        let clock = timeParts.first?.split(separator: ":", omittingEmptySubsequences: false) ?? []
        guard timeParts.count == 1, clock.count == 3, var hour = digits(clock[0], widths: 1...2),
            let minute = digits(clock[1], widths: 2...2), let second = digits(clock[2], widths: 2...2),
            minute < 60, second < 60
        else { return nil }
        if let half = twelveHour {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + half
        }
        guard hour < 24 else { return nil }
        let days = CivilDate.toDays(year: year, month: Int64(month + 1), day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        let instant = Instant(seconds: seconds)
        return Instant.supported.contains(instant) ? instant : nil
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The zones the report's times are written in, as seconds east of UTC.
    private static let zoneOffsets: [String: Int64] = ["PST": -28_800, "PDT": -25_200, "UTC": 0, "GMT": 0]

    private static func digits(_ text: Substring, widths: ClosedRange<Int>) -> Int64? {
        guard widths.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}
