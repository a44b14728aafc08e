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
        var csv = CSVText(reservingCapacity: audit.customers.count * 96)
        csv.row(columns)
        let customers = audit.customers
        customers.forEachVerdict { customer, verdict, slot in
            csv.cell(customer.id)
            csv.cell(verdict.customerClass.rawValue)
            var joined = [String]()
            verdict.flags.forEach { joined.append($0.code) }
            csv.cell(joined.isEmpty ? nil : joined.joined(separator: ";"))
            if verdict.customerClass == .grandfathered || verdict.customerClass == .subscriber {
                let list = customers.grants(at: slot, verdict: verdict).map {
                    $0.entitlement + ":" + $0.source.rawValue
                }
                csv.cell(list.isEmpty ? nil : list.joined(separator: ";"))
            } else {
                csv.cell(nil as String?)
            }
            csv.cell(customer.platform?.rawValue)
            csv.cell(customer.originalAppVersion)
            csv.cell(customer.originalPurchaseDate?.iso8601)
            csv.cell(customer.environment.rawValue)
            csv.cell(customer.isOrphan ? "yes" : "no")
            csv.endRow()
        }
        return csv.bytes
    }
}
