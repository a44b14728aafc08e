import GrandfatherEngine

/// `customers.csv`: one row per customer with class, flags and entitlements (SPEC §6).
public enum CustomersCSV {
    /// The header row's cells.
    public static let columns = [
        "customer_id", "class", "flags", "entitlements", "platform", "original_app_version",
        "original_purchase_date", "environment", "orphan",
    ]

    /// Renders the file. Flags and entitlements are `;`-separated; an entitlement is
    /// `entitlement:source:transaction_id`, or `entitlement:grandfathered` (no transaction).
    public static func render(_ audit: Audit) -> [UInt8] {
        write(audit).array
    }

    /// The file's bytes, written in place (the run's writer saves them without a copy).
    /// Whenever `drainingAt` bytes or more are written, they are handed to `drain` and
    /// forgotten, so that a large file never lies whole in memory (at a million customers
    /// it is about 90 MB); what is left is returned.
    static func write(
        _ audit: Audit, drainingAt limit: Int = .max, into drain: (ByteBuffer) -> Void = { _ in }
    ) -> ByteBuffer {
        var csv = CSVText(reservingCapacity: min(audit.customers.count * 96, limit) + 4096)
        csv.row(columns)
        let customers = audit.customers
        // The run's one classifier, taken once (reached through `customers` it is retained and
        // released per customer, on a counter the other core's jobs touch too) and used
        // through an unretained reference: the closures below would otherwise retain and
        // release it four times per customer. `owner` keeps it alive until the rows are written.
        let owner = customers.classifier
        let classifier = Unretained(owner)
        defer { withExtendedLifetime(owner) {} }
        customers.forEachVerdict { customer, verdict, activity in
            csv.cell(customer.id)
            csv.cell(verdict.customerClass.rawValue)
            csv.listCell { items in verdict.flags.forEach { items.item($0.code) } }
            if verdict.customerClass == .grandfathered || verdict.customerClass == .subscriber {
                csv.listCell { items in
                    classifier.object.withGrants(activity, verdict.customerClass) { grants in
                        for grant in grants {
                            items.item(classifier.object.name(of: grant), UInt8(ascii: ":"), grant.source.rawValue)
                            // Two grants of one entitlement from one source differ by their
                            // transaction: name it, as the snapshot's entitlements table does.
                            guard let index = grant.transaction else { continue }
                            items.extend(UInt8(ascii: ":"), activity.current[index].transactionID)
                        }
                    }
                }
            } else {
                csv.cell(nil as String?)
            }
            csv.cell(customer.platform?.rawValue)
            csv.cell(customer.originalAppVersion)
            csv.cell(customer.originalPurchaseDate)
            csv.cell(customer.environment.rawValue)
            csv.cell(customer.isOrphan ? "yes" : "no")
            csv.endRow()
            if csv.output.count >= limit {
                drain(csv.output)
                csv.output.truncate(to: 0)
            }
        }
        return csv.output
    }
}
