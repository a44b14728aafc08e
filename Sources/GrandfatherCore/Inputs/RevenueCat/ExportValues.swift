import GrandfatherEngine

/// Where a Scheduled Data Export row's values are read from: the row as the CSV reader
/// parsed it (`ExportRow`), or text a test writes.
protocol ExportValues {
    /// Gives `body` the bytes of `column`; `nil`, without calling it, when the column is
    /// missing from the header or empty in this row.
    func read<Result>(_ column: ExportColumn, _ body: (Span<UInt8>) -> Result) -> Result?
}

extension ExportValues {
    /// Whether `column` has a value in this row.
    func has(_ column: ExportColumn) -> Bool {
        read(column) { _ in true } ?? false
    }

    /// The text of `column`, for a message or a lookup; invalid UTF-8 is repaired.
    func text(_ column: ExportColumn) -> String? {
        read(column, RevenueCatValue.text)
    }
}

/// A row as the CSV reader parsed it, its fields indexed by `ExportColumn`.
struct ExportRow: ExportValues {
    let row: RawRow

    func read<Result>(_ column: ExportColumn, _ body: (Span<UInt8>) -> Result) -> Result? {
        row.withSpan(column.rawValue, body)
    }
}
