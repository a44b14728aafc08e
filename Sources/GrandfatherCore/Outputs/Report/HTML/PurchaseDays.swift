import GrandfatherEngine

/// Original purchases per day across the cutover, for the report's timeline: how many
/// customers bought in each of the 60 days before and after, with the edge window marked.
struct PurchaseDays: Sendable {
    static let span = 60

    /// Customers per day, day 0 being the 24 hours from the cutover instant.
    private(set) var counts = [Int](repeating: 0, count: 2 * span)

    mutating func add(_ purchase: Instant, cutover: Instant) {
        let seconds = (purchase.microseconds - cutover.microseconds).floorDivided(by: 86_400_000_000)
        let day = Int(seconds) + Self.span
        if (0..<counts.count).contains(day) { counts[day] += 1 }
    }

    /// The timeline as a chart: a bar per day, the window shaded, the cutover a line.
    func chart(cutover: Instant, windowSeconds: Int64) -> Chart {
        let left = 40.0
        let dayWidth = 5.5
        let top = 10.0
        let plotHeight = 160.0
        var chart = Chart(
            width: left + dayWidth * Double(counts.count) + 40, height: top + plotHeight + 34,
            caption: "Original purchases per day, \(Self.span) days either side of the cutover")
        let maximum = max(counts.max() ?? 0, 1)
        let zero = left + dayWidth * Double(Self.span)
        let window = Double(windowSeconds) / 86_400 * dayWidth
        chart.rect(
            x: zero - window, y: top, width: 2 * window, height: plotHeight, style: "window",
            title: "edge window: \(windowSeconds / 3600) h either side of the cutover")
        for (index, count) in counts.enumerated() where count > 0 {
            let height = plotHeight * Double(count) / Double(maximum)
            let day = index - Self.span
            chart.rect(
                x: left + dayWidth * Double(index) + 0.5, y: top + plotHeight - height, width: dayWidth - 1,
                height: height, style: day < 0 ? "before" : "after",
                title: "\(cutover.adding(seconds: Int64(day) * 86_400).iso8601.prefix(10)): \(count)")
        }
        chart.line(x1: left, y1: top + plotHeight, x2: chart.width - 40, y2: top + plotHeight, style: "axis")
        chart.line(x1: zero, y1: top - 4, x2: zero, y2: top + plotHeight + 4, style: "cutover")
        chart.label(x: left - 4, y: top + 8, anchor: "end", style: "value", String(maximum))
        chart.label(x: left - 4, y: top + plotHeight, anchor: "end", style: "value", "0")
        for day in stride(from: -Self.span, through: Self.span, by: 30) {
            let x = zero + dayWidth * Double(day)
            let date = String(cutover.adding(seconds: Int64(day) * 86_400).iso8601.prefix(10))
            chart.label(x: x, y: top + plotHeight + 16, anchor: "middle", day == 0 ? "cutover \(date)" : date)
        }
        return chart
    }
}

extension Int64 {
    /// Division rounding towards minus infinity: day -1 holds the day before the cutover.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
