import GrandfatherEngine

/// What one customer came out as, in the columns the warehouse's result tables and the
/// snapshot share: `gf_customers`' facts and class, the flags, and every grant with its
/// source, transaction and expiry. Instants are held as microseconds, so that `2024-06-01T00:00:00Z`
/// and `…00.000000Z` are one answer.
struct WarehouseAnswer: Equatable, Sendable, CustomStringConvertible {
    /// platform, original_app_version, original_purchase_date, environment, class.
    var facts: [String?]
    var flags: [String] = []
    /// (entitlement, source, transaction_id, expires_date), sorted.
    var grants: [[String?]] = []

    var description: String {
        func cells(_ values: [String?]) -> String { "(" + values.map { $0 ?? "NULL" }.joined(separator: ", ") + ")" }
        return "\(cells(facts)) flags=\(flags) grants=\(grants.map(cells))"
    }
}

enum WarehouseAnswers {
    /// The Swift audit's answers, by customer id.
    static func of(_ audit: Audit) -> [String: WarehouseAnswer] {
        var result: [String: WarehouseAnswer] = [:]
        for customer in audit.customers {
            let record = customer.customer
            result[record.id] = WarehouseAnswer(
                facts: [
                    record.platform?.rawValue, record.originalAppVersion,
                    record.originalPurchaseDate.map { String($0.microseconds) }, record.environment.rawValue,
                    customer.customerClass.rawValue,
                ],
                flags: customer.flags.map(\.code).sorted(),
                grants: customer.entitlements.map {
                    [
                        $0.entitlement, $0.source.rawValue, $0.transactionID,
                        $0.expiresDate.map { String($0.microseconds) },
                    ]
                }.sorted(by: precedes))
        }
        return result
    }

    /// The answers of the three result tables' rows (each in its columns' order: see
    /// `ClassificationScript`), instants as ISO-8601 text.
    static func of(
        customers: [[String?]], flags: [[String?]], entitlements: [[String?]]
    ) -> [String: WarehouseAnswer] {
        var result: [String: WarehouseAnswer] = [:]
        for row in customers where row.count >= 6 {
            result[row[0] ?? ""] = WarehouseAnswer(facts: [row[1], row[2], microseconds(row[3]), row[4], row[5]])
        }
        for row in flags where row.count >= 2 {
            result[row[0] ?? "", default: WarehouseAnswer(facts: [])].flags.append(row[1] ?? "")
        }
        for row in entitlements where row.count >= 5 {
            result[row[0] ?? "", default: WarehouseAnswer(facts: [])].grants.append([
                row[1], row[2], row[3], microseconds(row[4]),
            ])
        }
        return result.mapValues { answer in
            var sorted = answer
            sorted.flags.sort()
            sorted.grants.sort(by: precedes)
            return sorted
        }
    }

    /// The customers whose answers differ, in id order, with both answers (`nil`: none).
    static func differences(
        _ left: [String: WarehouseAnswer], _ right: [String: WarehouseAnswer]
    ) -> [(id: String, left: WarehouseAnswer?, right: WarehouseAnswer?)] {
        Set(left.keys).union(right.keys).sorted { $0.codePointPrecedes($1) }.compactMap { id in
            left[id] == right[id] ? nil : (id, left[id], right[id])
        }
    }

    /// An instant's text as microseconds since the epoch; text that is no instant stays
    /// itself, marked, so that it differs from every instant.
    private static func microseconds(_ text: String?) -> String? {
        guard let text else { return nil }
        guard case .success(let instant) = TimestampParser(defaultZone: nil).parse(text) else {
            return "not an instant: " + text
        }
        return String(instant.microseconds)
    }

    private static func precedes(_ left: [String?], _ right: [String?]) -> Bool {
        left.map { $0 ?? "" }.lexicographicallyPrecedes(right.map { $0 ?? "" }) { $0.codePointPrecedes($1) }
    }
}
