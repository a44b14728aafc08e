import GrandfatherEngine

/// SPEC §9, licensing verdicts: what Google Play's licensing check, stored by the team's
/// server with the customer's account id while the app was paid, says of the customer.
///
/// A `LICENSED` verdict before the cutover is evidence of purchase: the app was bought by
/// then. The earliest such verdict stands as the customer's original purchase date (the
/// purchase is known to have happened by that instant), from the source `playLicensing`, and
/// the platform `android` as a store's. A `LICENSED` verdict at or after the cutover is no
/// evidence, since every Play install of the free app is licensed: a customer whose verdicts
/// are licensed only then raises `licensed_only_after_cutover` (info). Unlicensed and
/// unevaluated verdicts say nothing.
///
/// These rules have no SQL twin: `normalize` writes each customer with the date and the mark
/// they gave (`customers.licensed_only_after_cutover`), so the warehouse script starts after them.
enum LicensingRules {
    /// One stored verdict: whose, when, and whether Play said the app was licensed to them.
    struct Verdict: Equatable, Sendable {
        var customerID: String
        var at: Instant
        var licensed: Bool
    }

    /// One record per customer with a verdict, in id order, holding what its verdicts give.
    static func customers(from verdicts: [Verdict], cutover: Instant) -> [Customer] {
        var fold = Fold(cutover: cutover)
        for verdict in verdicts { fold.add(verdict) }
        return fold.customers
    }

    /// The verdicts folded as they are read: per customer, only what the records need (the
    /// earliest licensed instant before the cutover, whether one was licensed after it), so a
    /// million verdicts of one customer keep one entry.
    struct Fold {
        let cutover: Instant
        private var bought: [String: Instant] = [:]
        private var licensedAfter: Set<String> = []
        private var seen: Set<String> = []

        init(cutover: Instant) { self.cutover = cutover }

        var isEmpty: Bool { seen.isEmpty }

        mutating func add(_ verdict: Verdict) {
            seen.insert(verdict.customerID)
            guard verdict.licensed else { return }
            if verdict.at < cutover {
                bought[verdict.customerID] = min(verdict.at, bought[verdict.customerID] ?? verdict.at)
            } else {
                licensedAfter.insert(verdict.customerID)
            }
        }

        /// One record per customer with a verdict, in id order.
        var customers: [Customer] {
            seen.sorted().map { id in
                let date = bought[id]
                var customer = Customer(id: id, platform: .android, originalPurchaseDate: date)
                    .read(from: .playLicensing, facts: date == nil ? [.platform] : [.platform, .originalPurchaseDate])
                customer.provenance.platformIsAStore = true
                customer.isLicensedOnlyAfterCutover = date == nil && licensedAfter.contains(id)
                return customer
            }
        }
    }
}
