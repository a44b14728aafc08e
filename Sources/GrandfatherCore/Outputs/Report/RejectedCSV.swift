/// `rejected.csv`: every input row not accepted, with file, line and reason (SPEC §6).
public enum RejectedCSV {
    public static let columns = ["file", "line", "column", "field", "reason"]

    /// Renders the file, rows in input order then line order.
    public static func render(_ audit: Audit) -> [UInt8] {
        var csv = CSVText()
        csv.row(columns)
        for rejection in audit.rejections {
            csv.row([
                rejection.file, String(rejection.line), rejection.column.map(String.init), rejection.field,
                rejection.reason,
            ])
        }
        return csv.bytes
    }
}
