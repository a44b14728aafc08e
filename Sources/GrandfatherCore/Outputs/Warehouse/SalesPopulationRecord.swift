/// What the stores' sales reports counted, as a `normalize` folder's manifest keeps it: every
/// cell, file and title the reports show (`PopulationSection`, `PopulationJSON`), so that a run
/// made from the warehouse's answers (`audit --results`) sets the same copies beside its
/// customers as `audit` does. The orders are not kept: the claims they date were weighed by
/// `normalize` already, and the reports do not show them.
struct SalesPopulationRecord: Codable, Equatable {
    struct Cell: Codable, Equatable {
        var store: SalesPopulation.Store
        var app: String
        var month: String
        var country: String
        var period: SalesPopulation.Period
        var paid: Int
        var free: Int
        var returned: Int
    }

    struct File: Codable, Equatable {
        var path: String
        var store: SalesPopulation.Store?
        var countedRows: Int
        var paid: Int
        var free: Int
        var returned: Int
        var notCounted: [String: Int]
        var firstDay: String?
        var lastDay: String?
        var repeats: String?
        var countsOrders: Bool

        enum CodingKeys: String, CodingKey {
            case path, store, paid, free, returned, repeats
            case countedRows = "counted_rows"
            case notCounted = "not_counted"
            case firstDay = "first_day"
            case lastDay = "last_day"
            case countsOrders = "counts_orders"
        }
    }

    struct Title: Codable, Equatable {
        var store: SalesPopulation.Store
        var app: String
        var title: String
    }

    /// In key order, so that a folder's manifest is the same whatever order the reports came in.
    var cells: [Cell]
    var files: [File]
    var titles: [Title]

    init(_ population: SalesPopulation) {
        cells = population.units.sorted { $0.key < $1.key }.map { key, units in
            Cell(
                store: key.store, app: key.app, month: key.month, country: key.country, period: key.period,
                paid: units.paid, free: units.free, returned: units.returned)
        }
        files = population.files.sorted { $0.key < $1.key }.map { path, file in
            File(
                path: path, store: file.store, countedRows: file.countedRows, paid: file.copies.paid,
                free: file.copies.free, returned: file.copies.returned, notCounted: file.notCounted,
                firstDay: file.days?.lowerBound, lastDay: file.days?.upperBound, repeats: file.repeats,
                countsOrders: file.countsOrders)
        }
        titles = population.titles.sorted { $0.key < $1.key }.flatMap { store, apps in
            apps.sorted { $0.key < $1.key }.map { Title(store: store, app: $0.key, title: $0.value) }
        }
    }

    /// The population the record was made from, less its orders. A manifest is a file anyone
    /// can edit, so its counts are held to what a run could have counted: none below zero, and
    /// all together within `SalesPopulation.mostCopies`; else exit 2 naming the manifest.
    func population(manifest: String) throws(GrandfatherError) -> SalesPopulation {
        var population = SalesPopulation()
        for cell in cells {
            let key = SalesPopulation.Key(
                store: cell.store, app: cell.app, month: cell.month, country: cell.country, period: cell.period)
            let units = SalesPopulation.Units(paid: cell.paid, free: cell.free, returned: cell.returned)
            guard population.restore(units, at: key) else {
                throw .input(
                    file: manifest, line: nil,
                    message:
                        "sales_population's copies of \(cell.app) in \(cell.month) \(cell.country) are not counts a run could make"
                )
            }
        }
        for file in files {
            guard [file.countedRows, file.paid, file.free, file.returned].allSatisfy({ $0 >= 0 }) else {
                throw .input(
                    file: manifest, line: nil, message: "sales_population's counts of \(file.path) are below zero")
            }
            var count = SalesPopulation.FileCount()
            count.store = file.store
            count.countedRows = file.countedRows
            count.copies = SalesPopulation.Units(paid: file.paid, free: file.free, returned: file.returned)
            count.notCounted = file.notCounted
            if let first = file.firstDay, let last = file.lastDay, first <= last { count.days = first...last }
            count.repeats = file.repeats
            count.countsOrders = file.countsOrders
            population.files[file.path] = count
        }
        for title in titles { population.titles[title.store, default: [:]][title.app] = title.title }
        return population
    }
}
