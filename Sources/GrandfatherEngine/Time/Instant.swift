/// A point in time: microseconds since 1970-01-01T00:00:00Z, in UTC.
///
/// Microseconds keep the sub-millisecond fractions that exports carry; digits finer than a
/// microsecond are truncated when parsed (see `TimestampParser`). Every instant read from an
/// input, the policy or `--as-of` lies in `supported` (SPEC §9, "Instants"), or is refused
/// where it is read; within that range no difference of two instants can overflow, and
/// `adding(seconds:)` stays inside it, so every instant written reads back.
public struct Instant: Hashable, Comparable, Sendable {
    /// Microseconds since the Unix epoch.
    public var microseconds: Int64

    /// Creates an instant from microseconds since the epoch.
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// Creates an instant from whole seconds since the epoch.
    public init(seconds: Int64) {
        self.microseconds = seconds * 1_000_000
    }

    /// Whole seconds since the epoch, rounded down.
    public var wholeSeconds: Int64 {
        microseconds >= 0 ? microseconds / 1_000_000 : (microseconds + 1) / 1_000_000 - 1
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z: the instants Grandfather reads,
    /// computes and writes.
    public static let supported =
        Instant(
            microseconds: -62_135_596_800_000_000)...Instant(
            microseconds: 253_402_300_799_999_999)

    /// The range as reasons state it.
    public static let supportedDescription = "0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z"

    /// The instant moved by a number of seconds, held within `supported`: a grant that would
    /// end after 9999 ends at its last microsecond. Never traps.
    public func adding(seconds: Int64) -> Instant {
        let (delta, overflowDelta) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflowSum) = microseconds.addingReportingOverflow(delta)
        if overflowDelta || overflowSum { return seconds < 0 ? Self.supported.lowerBound : Self.supported.upperBound }
        return min(max(Instant(microseconds: sum), Self.supported.lowerBound), Self.supported.upperBound)
    }
}

extension Instant: CustomStringConvertible {
    /// ISO-8601 in UTC: `2024-02-29T23:59:59Z`, with `.fff` or `.ffffff` only when the
    /// fraction is not zero.
    public var description: String { iso8601 }

    /// ISO-8601 in UTC, the form every report and the snapshot use. Years outside 0000–9999
    /// (reachable only through extreme epoch milliseconds) take the digits they need.
    ///
    /// Reports and the snapshot write millions of instants, and format them into their bytes
    /// directly (`writeISO8601(into:)`, in Time/Instant+ISO8601.swift); this string is for the rest.
    public var iso8601: String {
        let (year, month, day, secondOfDay, micros) = Self.fields(microseconds)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = (0...9999).contains(year) ? pad(year, 4) : String(year)
        text += "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
        text += pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros != 0 { text += micros % 1000 == 0 ? "." + pad(micros / 1000, 3) : "." + pad(micros, 6) }
        return text + "Z"
    }

    /// Calendar date, second of the day and microsecond of the second, in UTC.
    static func fields(
        _ microseconds: Int64
    ) -> (year: Int64, month: Int64, day: Int64, secondOfDay: Int64, micros: Int64) {
        var seconds = microseconds / 1_000_000
        var micros = microseconds % 1_000_000
        if micros < 0 {
            micros += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDate.fromDays(days)
        return (year, month, day, secondOfDay, micros)
    }
}

/// Conversions between the proleptic Gregorian calendar and days since 1970-01-01.
///
/// Howard Hinnant's `days_from_civil` algorithms: exact for every year, no Foundation.
public enum CivilDate {
    public static func toDays(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func fromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    public static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
