import GrandfatherEngine

/// A day of a sales report's period, in the zone its store counts days in: when it starts,
/// when the next starts, its month (`YYYY-MM`) and itself (`YYYY-MM-DD`).
struct ReportDay {
    let start: Instant
    let next: Instant
    let month: String
    let text: String

    /// The day, when it is one of the calendar's (years 1–9998, so the next day is one too).
    init?(year: Int64, month: Int64, day: Int64, in zone: WallClockZone?) {
        guard let zone, (1...9998).contains(year), (1...12).contains(month),
            (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        let days = CivilDate.toDays(year: year, month: month, day: day)
        start = zone.instant(forWallTime: Instant(seconds: days * 86_400))
        next = zone.instant(forWallTime: Instant(seconds: (days + 1) * 86_400))
        self.month = String(format: "%04d-%02d", Int(year), Int(month))
        text = self.month + String(format: "-%02d", Int(day))
    }

    /// Where a period from the start of `first` to the end of `last` lies against `cutover`.
    static func period(from first: ReportDay, to last: ReportDay, against cutover: Instant) -> SalesPopulation.Period {
        last.next <= cutover ? .before : first.start >= cutover ? .after : .spansCutover
    }

    /// The three numbers a day is written as, each of exactly its width in digits, split at
    /// `separator` (`MM/DD/YYYY` is widths 2, 2, 4).
    static func fields(_ text: String?, separator: Character, widths: [Int]) -> [Int64]? {
        guard let parts = text?.split(separator: separator, omittingEmptySubsequences: false), parts.count == 3,
            zip(parts, widths).allSatisfy({ part, width in
                part.utf8.count == width && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            })
        else { return nil }
        let numbers = parts.compactMap { Int64($0) }
        return numbers.count == 3 ? numbers : nil
    }
}
