import GrandfatherEngine

/// The stores' count of paid copies set beside the customers the audit grandfathered, per
/// store: how many buyers will meet the paywall because the data about them is missing.
///
/// Copies are the paid units of periods that end by the cutover, net of returns; a period
/// that holds the cutover is counted apart. Customers are those of the store's platforms
/// the audit grandfathered, by the month of their original purchase (in the store's report
/// zone) and the country of their storefront.
public struct PopulationReconciliation: Sendable, Equatable {
    /// One month and country of one store.
    public struct Cell: Sendable, Equatable {
        /// `YYYY-MM`; empty for grandfathered customers with no original purchase date.
        public var month: String
        /// ISO 3166-1 alpha-2; empty when unknown.
        public var country: String
        /// Paid copies net of returns in periods that end by the cutover.
        public var copies = 0
        public var grandfathered = 0
        /// Copies with no customer found: `copies - grandfathered` (negative when more
        /// customers were grandfathered than the reports counted copies).
        public var gap: Int { copies - grandfathered }
    }

    /// One store's reconciliation.
    public struct Store: Sendable, Equatable {
        public var store: SalesPopulation.Store
        /// The apps the store's reports counted copies of.
        public var apps: [String]
        /// The paid apps the count is set against customers for: the policy's `sales.paid_app`
        /// (the rows of any other app were not counted), else the reports' one app; empty when
        /// they hold several apps and the policy names none.
        public var paidApps: [String]
        /// Before the cutover: paid copies, returns, and copies given at no price.
        public var paidBefore: Units
        /// Copies in report periods that hold the cutover, which cannot be split.
        public var spanningCutover: Units
        /// Copies after the cutover.
        public var after: Units
        /// The first and last months the reports cover.
        public var months: ClosedRange<String>?
        /// Customers of the store's platforms the audit grandfathered.
        public var grandfathered: Int
        /// By month and country, in that order.
        public var cells: [Cell]

        /// Paid copies with no customer found; `nil` when no paid app could be chosen, or when
        /// the reports' returns outnumber their paid copies (copies sold before the first report
        /// given, returned within them): then they count no buyers to set the customers against.
        public var gap: Int? { paidApps.isEmpty || paidBefore.net < 0 ? nil : paidBefore.net - grandfathered }
    }

    public typealias Units = SalesPopulation.Units

    public var stores: [Store]

    public var isEmpty: Bool { stores.isEmpty }

    /// What `population` counted set beside the grandfathered among `customers`, in one pass
    /// over them; empty when no sales report was read. `sales.paid_app` non-empty means the
    /// reports' rows of other apps were not counted, so every app counted is a paid app.
    init(_ population: SalesPopulation, sales: SalesPolicy, customers: CustomerResults) {
        let apps = population.apps
        var stores: [Store] = []
        var cells: [[String: Cell]] = []
        for store in SalesPopulation.Store.allCases {
            guard let counted = apps[store], !counted.isEmpty else { continue }
            let paidApps = !sales.paidApp.isEmpty || counted.count == 1 ? counted : []
            var entry = Store(
                store: store, apps: counted, paidApps: paidApps, paidBefore: Units(), spanningCutover: Units(),
                after: Units(), months: nil, grandfathered: 0, cells: [])
            var storeCells: [String: Cell] = [:]
            for (key, units) in population.units where key.store == store {
                switch key.period {
                case .before:
                    entry.paidBefore = entry.paidBefore + units
                    storeCells[key.month + "|" + key.country, default: Cell(month: key.month, country: key.country)]
                        .copies += units.net
                case .spansCutover: entry.spanningCutover = entry.spanningCutover + units
                case .after: entry.after = entry.after + units
                }
                let low = entry.months.map { min($0.lowerBound, key.month) } ?? key.month
                let high = entry.months.map { max($0.upperBound, key.month) } ?? key.month
                entry.months = low...high
            }
            stores.append(entry)
            cells.append(storeCells)
        }
        // The stores whose copies are set against customers, by platform.
        var storeOf: [Platform: Int] = [:]
        for (index, entry) in stores.enumerated() where !entry.paidApps.isEmpty {
            for platform in Platform.allCases where entry.store.sells(to: platform) { storeOf[platform] = index }
        }
        if !storeOf.isEmpty {
            customers.forEachVerdict { customer, verdict, _ in
                guard verdict.customerClass == .grandfathered, let platform = customer.platform,
                    let index = storeOf[platform]
                else { return }
                stores[index].grandfathered += 1
                let month = customer.originalPurchaseDate.map { Self.month(of: $0, in: stores[index].store) } ?? ""
                let country = customer.storefront.flatMap(CountryCodes.alpha2) ?? ""
                cells[index][month + "|" + country, default: Cell(month: month, country: country)].grandfathered += 1
            }
        }
        for index in stores.indices {
            stores[index].cells = cells[index].values.sorted { ($0.month, $0.country) < ($1.month, $1.country) }
        }
        self.stores = stores
    }

    /// The month (`YYYY-MM`) of an instant in the zone the store dates its reports in.
    static func month(of instant: Instant, in store: SalesPopulation.Store) -> String {
        let offset = Int64(store.reportZone?.secondsFromUTC(at: instant) ?? 0)
        let local = instant.microseconds / 1_000_000 + offset
        let days = local >= 0 ? local / 86_400 : (local + 1) / 86_400 - 1
        let date = CivilDate.fromDays(days)
        return String(format: "%04d-%02d", Int(date.year), Int(date.month))
    }
}
