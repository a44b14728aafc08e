/// A chart as plain geometry: the template draws it as inline SVG, escaping every label,
/// so that no input text ever reaches the page unescaped.
struct Chart: Sendable {
    struct Rect: Sendable {
        var x: String
        var y: String
        var width: String
        var height: String
        /// CSS class: its colour.
        var style: String
        /// Shown on hover and read by screen readers.
        var title: String
    }

    struct Label: Sendable {
        var x: String
        var y: String
        /// `start`, `middle` or `end`.
        var anchor: String
        var style: String
        var text: String
    }

    struct Line: Sendable {
        var x1: String
        var y1: String
        var x2: String
        var y2: String
        var style: String
    }

    let width: Double
    let height: Double
    /// What the chart shows, for screen readers and the figure caption.
    let caption: String
    var rects: [Rect] = []
    var labels: [Label] = []
    var lines: [Line] = []
    // Stored text, because the template reads stored properties only, and prints them.
    let viewBox: String
    let widthText: String
    let heightText: String

    init(width: Double, height: Double, caption: String) {
        self.width = width
        self.height = height
        self.caption = caption
        viewBox = "0 0 \(Self.number(width)) \(Self.number(height))"
        widthText = Self.number(width)
        heightText = Self.number(height)
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, style: String, title: String) {
        rects.append(
            Rect(
                x: Self.number(x), y: Self.number(y), width: Self.number(max(width, 0)),
                height: Self.number(max(height, 0)), style: style, title: title))
    }

    mutating func label(x: Double, y: Double, anchor: String = "start", style: String = "", _ text: String) {
        labels.append(Label(x: Self.number(x), y: Self.number(y), anchor: anchor, style: style, text: text))
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, style: String) {
        lines.append(
            Line(x1: Self.number(x1), y1: Self.number(y1), x2: Self.number(x2), y2: Self.number(y2), style: style))
    }

    /// Coordinates to a tenth: enough for a screen, and the same bytes on every run.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// Horizontal bars, one per row, with the label left and the value right of each bar.
    static func bars(_ rows: [(label: String, value: Int, style: String)], caption: String) -> Chart {
        let labelWidth = 150.0
        let barWidth = 420.0
        let rowHeight = 22.0
        var chart = Chart(
            width: labelWidth + barWidth + 80, height: rowHeight * Double(rows.count) + 8, caption: caption)
        let maximum = max(rows.map(\.value).max() ?? 0, 1)
        for (index, row) in rows.enumerated() {
            let y = 4 + Double(index) * rowHeight
            let width = barWidth * Double(row.value) / Double(maximum)
            chart.label(x: labelWidth - 8, y: y + 15, anchor: "end", row.label)
            chart.rect(
                x: labelWidth, y: y + 3, width: width, height: rowHeight - 6, style: row.style,
                title: "\(row.label): \(row.value)")
            chart.label(x: labelWidth + width + 6, y: y + 15, style: "value", String(row.value))
        }
        return chart
    }
}
