/// `customers.csv`: one row per customer with class, flags and entitlements (SPEC §6).
public enum CustomersCSV {
    /// The header row's cells.
    public static let columns = [
        "customer_id", "class", "flags", "entitlements", "platform", "original_app_version",
        "original_purchase_date", "environment", "orphan",
    ]

    /// Renders the file. Flags and entitlements are `;`-separated; an entitlement is
    /// `entitlement:source`.
    public static func render(_ audit: Audit) -> [UInt8] {
        var csv = CSVText()
        csv.row(columns)
        for result in audit.customers {
            let customer = result.customer
            csv.row([
                customer.id, result.customerClass.rawValue,
                result.flags.map(\.code).joined(separator: ";"),
                result.entitlements.map { "\($0.entitlement):\($0.source.rawValue)" }.joined(separator: ";"),
                customer.platform?.rawValue, customer.originalAppVersion, customer.originalPurchaseDate?.iso8601,
                customer.environment.rawValue, customer.isOrphan ? "yes" : "no",
            ])
        }
        return Array(csv.text.utf8)
    }
}

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
        return Array(csv.text.utf8)
    }
}
