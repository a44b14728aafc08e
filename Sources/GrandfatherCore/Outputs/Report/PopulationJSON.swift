/// The `sales_population` object of `summary.json`: what the stores' sales reports counted and
/// how many buyers the audit found (`PopulationReconciliation`).
struct PopulationJSON: Encodable {
    struct Copies: Encodable {
        var paid, free, returned, net: Int

        init(_ units: SalesPopulation.Units) {
            (paid, free, returned, net) = (units.paid, units.free, units.returned, units.net)
        }
    }

    struct Cell: Encodable {
        var month, country: String
        var paidCopies, customersGrandfathered, noCustomerFound: Int

        enum CodingKeys: String, CodingKey {
            case month, country
            case paidCopies = "paid_copies"
            case customersGrandfathered = "customers_grandfathered"
            case noCustomerFound = "no_customer_found"
        }
    }

    struct Store: Encodable {
        var store: String
        var apps: [String]
        var paidApps: [String]
        var firstMonth, lastMonth: String?
        var beforeCutover, spanningCutover, afterCutover: Copies
        var customersGrandfathered: Int
        /// `null` when no paid app could be chosen.
        var paidCopiesWithoutCustomer: Int?
        var byMonthAndCountry: [Cell]

        enum CodingKeys: String, CodingKey {
            case store, apps
            case paidApps = "paid_apps"
            case firstMonth = "first_month"
            case lastMonth = "last_month"
            case beforeCutover = "before_cutover"
            case spanningCutover = "spanning_cutover"
            case afterCutover = "after_cutover"
            case customersGrandfathered = "customers_grandfathered"
            case paidCopiesWithoutCustomer = "paid_copies_without_customer"
            case byMonthAndCountry = "by_month_and_country"
        }
    }

    struct File: Encodable {
        var path: String
        var countedRows: Int
        var copies: Copies
        var notCounted: [String: Int]
        var firstDay, lastDay, repeats: String?

        enum CodingKeys: String, CodingKey {
            case path, copies, repeats
            case countedRows = "counted_rows"
            case notCounted = "not_counted"
            case firstDay = "first_day"
            case lastDay = "last_day"
        }
    }

    var stores: [Store]
    var files: [File]
    var warnings: [String]

    init(_ population: SalesPopulation, _ reconciliation: PopulationReconciliation) {
        stores = reconciliation.stores.map { store in
            Store(
                store: store.store.rawValue, apps: store.apps, paidApps: store.paidApps,
                firstMonth: store.months?.lowerBound, lastMonth: store.months?.upperBound,
                beforeCutover: Copies(store.paidBefore), spanningCutover: Copies(store.spanningCutover),
                afterCutover: Copies(store.after), customersGrandfathered: store.grandfathered,
                paidCopiesWithoutCustomer: store.gap,
                byMonthAndCountry: store.cells.map {
                    Cell(
                        month: $0.month, country: $0.country, paidCopies: $0.copies,
                        customersGrandfathered: $0.grandfathered, noCustomerFound: $0.gap)
                })
        }
        files = population.files.sorted { $0.key < $1.key }.map { path, file in
            File(
                path: path, countedRows: file.countedRows, copies: Copies(file.copies), notCounted: file.notCounted,
                firstDay: file.days?.lowerBound, lastDay: file.days?.upperBound, repeats: file.repeats)
        }
        warnings = PopulationSection.warnings(population)
    }
}
