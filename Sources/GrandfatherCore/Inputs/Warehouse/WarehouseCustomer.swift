import GrandfatherEngine

/// One row of a `normalize` folder's `customers.csv` read back into the customer it was
/// written from: its facts, where they came from, and the marks the rules read.
enum WarehouseCustomer {
    struct Read {
        var customer: Customer
        /// RevenueCat's subscriber response gave a view of the customer.
        var serviceView: Bool
    }

    /// The customer of `row` (in `WarehouseLayout.customers`' column order); the facts of a
    /// customer assembled from several sources take their sources from `factSources`.
    static func read(
        _ row: [String?], factSources: [String: [(CustomerFact, CustomerSource)]]
    ) -> Result<Read, RowProblem> {
        func problem(_ field: String, _ reason: String) -> Result<Read, RowProblem> {
            .failure(RowProblem(field: field, column: nil, reason: "\(field): \(reason)"))
        }
        let parser = TimestampParser(defaultZone: nil)
        func instant(_ index: Int) -> Instant?? {
            guard let text = row[index] else { return .some(nil) }
            guard case .success(let value) = parser.parse(text) else { return nil }
            return .some(value)
        }
        func flag(_ index: Int) -> Bool? {
            switch row[index] {
            case "true": return true
            case "false": return false
            default: return nil
            }
        }
        guard let id = row[0] else { return problem("customer_id", "missing") }
        let platform = row[1].flatMap(Platform.init(rawValue:))
        if row[1] != nil, platform == nil {
            return problem("platform", "unknown platform '\(Excerpt.of(row[1] ?? ""))'")
        }
        guard let purchased = instant(3) else { return problem("original_purchase_date", "invalid timestamp") }
        guard let environment = row[4].flatMap(Environment.init(rawValue:)) else {
            return problem("environment", "must be production or sandbox")
        }
        guard let preordered = instant(5) else { return problem("preorder_date", "invalid timestamp") }
        guard let isOrphan = flag(7), let isUnlinked = flag(8), let conflicting = flag(9), let serviceView = flag(11)
        else { return problem("is_orphan", "a mark is not true or false") }
        let source = row[10].flatMap { code in CustomerSource.allCases.first { $0.code == code } }
        if row[10] != nil, source == nil {
            return problem("facts_source", "unknown source '\(Excerpt.of(row[10] ?? ""))'")
        }

        guard let orderClaims = OrderClaims(code: row[12] ?? "") else {
            return problem("order_claims", "'\(Excerpt.of(row[12] ?? ""))' names an outcome not known")
        }

        // Absent from folders written before it: not licensed only after the cutover.
        guard let licensedOnlyAfter = row[13] == nil ? false : flag(13) else {
            return problem("licensed_only_after_cutover", "a mark is not true or false")
        }

        var customer = Customer(
            id: id, platform: platform, originalAppVersion: row[2], originalPurchaseDate: purchased,
            environment: environment, preorderDate: preordered, storefront: row[6], isOrphan: isOrphan)
        customer.isUnlinked = isUnlinked
        customer.orderClaims = orderClaims
        customer.isLicensedOnlyAfterCutover = licensedOnlyAfter
        if let source {
            // Every fact from the record's own source, unless the folder names each one's.
            customer = customer.read(from: source, facts: factSources[id] == nil ? nil : [])
            for (fact, factSource) in factSources[id] ?? [] { customer.provenance.set(fact, factSource) }
        }
        customer.provenance.hasConflictingFacts = conflicting
        return .success(Read(customer: customer, serviceView: serviceView))
    }
}
