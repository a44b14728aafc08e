@testable import GrandfatherEngine

/// Everything a reader delivers, in order, as text to compare: each row's line and fields
/// (column and bytes, `-` for absent, `nested` for a JSON object or array), each rejection's
/// line, column, field and reason. The differential tests compare two readers through it.
struct RecordingSink: RowSink {
    let fieldCount: Int
    var events: [String] = []

    mutating func accept(_ row: RawRow) {
        let fields = (0..<fieldCount).map { field -> String in
            guard row.has(field) else {
                switch row.spans[field].count {
                case RawRow.Span.nested: return "nested"
                case RawRow.Span.boolean: return "boolean"
                default: return "-"
                }
            }
            return "\(row.column(of: field) ?? 0):\(Array(row.bytes(field)))"
        }
        events.append("row \(row.line) " + fields.joined(separator: " "))
    }

    mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
        events.append("reject \(line) \(column ?? 0) \(field ?? "-") \(reason)")
    }
}
