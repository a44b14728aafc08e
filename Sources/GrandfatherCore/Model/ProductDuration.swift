import GrandfatherEngine

/// A product's term as RevenueCat's export states it (`product_duration`: an ISO-8601
/// duration of whole years, months, weeks and days, `P1M`, `P1Y`, `P2W`, `P3D`, `P1Y6M`):
/// calendar months and days, added in UTC as a calendar adds them (a month from January 31 is
/// February's last day), so that a one-month pass ends a month after it was bought whatever
/// the month's length.
public struct ProductDuration: Sendable, Hashable, Comparable {
    public var months: Int32
    public var days: Int32

    public init(months: Int32, days: Int32) {
        self.months = months
        self.days = days
    }

    /// A duration of years, months, weeks and days (`P1Y2M3W4D`, any of them, in that order);
    /// `nil` for anything else: a time part (`PT1H`), a fraction, an empty `P`, a term of a
    /// thousand years or more.
    public init?(iso8601 text: Span<UInt8>) {
        guard text.count >= 3, text[0] == UInt8(ascii: "P") else { return nil }
        var months: Int64 = 0
        var days: Int64 = 0
        var number: Int64 = -1
        var lastUnit = 0
        for index in 1..<text.count {
            let byte = text[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                number = max(number, 0) * 10 + Int64(byte - UInt8(ascii: "0"))
                guard number < 12_000 else { return nil }
                continue
            }
            // Each unit once, in order: Y, M, W, D.
            let unit: Int
            switch byte {
            case UInt8(ascii: "Y"): unit = 1
            case UInt8(ascii: "M"): unit = 2
            case UInt8(ascii: "W"): unit = 3
            case UInt8(ascii: "D"): unit = 4
            default: return nil
            }
            guard number >= 0, unit > lastUnit else { return nil }
            switch unit {
            case 1: months += 12 * number
            case 2: months += number
            case 3: days += 7 * number
            default: days += number
            }
            lastUnit = unit
            number = -1
        }
        guard number < 0, lastUnit > 0, months < 12_000, days < 366_000 else { return nil }
        self.init(months: Int32(months), days: Int32(days))
    }

    /// `instant` plus this term: months first (the day held at the month's last when the
    /// month is shorter), then days; held within `Instant.supported`.
    public func end(from instant: Instant) -> Instant {
        let microsPerDay: Int64 = 86_400_000_000
        let micros = instant.microseconds
        let day = micros >= 0 ? micros / microsPerDay : (micros - microsPerDay + 1) / microsPerDay
        let civil = CivilDate.fromDays(day)
        let monthIndex = civil.year * 12 + (civil.month - 1) + Int64(months)
        let year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let month = monthIndex - year * 12 + 1
        let dayOfMonth = min(civil.day, CivilDate.daysInMonth(year: year, month: month))
        let days = CivilDate.toDays(year: year, month: month, day: dayOfMonth) + Int64(self.days)
        // Whole days from the purchase's day, so its time of day stays.
        return instant.adding(seconds: (days - day) * 86_400)
    }

    /// The term in whole days, a month counted as 365/12 days (`P1M` 30, `P6M` 183, `P1Y`
    /// 365): what a policy's `term_days` suggested for it says.
    public var typicalDays: Int {
        (Int(months) * 365 + 6) / 12 + Int(days)
    }

    /// As the export writes it: `P1Y6M`, `P30D` (weeks as days).
    public var iso8601: String {
        var text = "P"
        if months / 12 > 0 { text += "\(months / 12)Y" }
        if months % 12 > 0 { text += "\(months % 12)M" }
        if days > 0 || text == "P" { text += "\(days)D" }
        return text
    }

    public static func < (lhs: ProductDuration, rhs: ProductDuration) -> Bool {
        (lhs.months, lhs.days) < (rhs.months, rhs.days)
    }
}
