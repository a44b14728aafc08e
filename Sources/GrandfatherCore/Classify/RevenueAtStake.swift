import Foundation

/// What the customers of each class pay for subscriptions that are current as of the run:
/// the money a business-model change puts at stake.
///
/// A customer counts when it holds at least one current, purchased (not family-shared)
/// auto-renewable or non-renewing transaction priced above zero. Each subscription
/// (original transaction id, else transaction id) adds the price of its latest such
/// transaction, in its currency. Currencies are never converted unless the policy's `fx`
/// table says how; no rate is ever invented.
public struct RevenueAtStake: Sendable, Equatable {
    /// One class's figures.
    public struct Figures: Sendable, Equatable {
        public var customers = 0
        /// Sums by currency code, codes sorted; `XXX` (ISO 4217's "no currency") when a
        /// transaction gave none.
        public var byCurrency: [String: Decimal] = [:]

        public var currencies: [(String, Decimal)] { byCurrency.sorted { $0.key < $1.key } }

        /// The sum in the reporting currency of every currency `rates` knows, and what is
        /// left unconverted.
        public func converted(_ rates: ExchangeRates) -> (amount: Decimal, unconverted: [(String, Decimal)]) {
            var amount: Decimal = 0
            var unconverted: [(String, Decimal)] = []
            for (currency, sum) in currencies {
                if let rate = rates.rate(for: currency) {
                    amount += sum * rate
                } else {
                    unconverted.append((currency, sum))
                }
            }
            return (amount, unconverted)
        }
    }

    /// Figures per class, every class present, in class order.
    public private(set) var classes: [(CustomerClass, Figures)]

    public static func == (left: RevenueAtStake, right: RevenueAtStake) -> Bool {
        left.classes.map(\.0) == right.classes.map(\.0) && left.classes.map(\.1) == right.classes.map(\.1)
    }

    /// Every class's figures, summed over every class.
    public var total: Figures {
        var total = Figures()
        for (_, figures) in classes {
            total.customers += figures.customers
            for (currency, amount) in figures.byCurrency { total.byCurrency[currency, default: 0] += amount }
        }
        return total
    }

    init(_ results: CustomerResults) {
        var figures = [Figures](repeating: Figures(), count: CustomerClass.allCases.count)
        results.forEachActivity { verdict, activity in
            let paid = Self.subscriptions(activity)
            guard !paid.isEmpty else { return }
            let index = CustomerClass.allCases.firstIndex(of: verdict.customerClass) ?? 0
            figures[index].customers += 1
            for (currency, price) in paid { figures[index].byCurrency[currency, default: 0] += price }
        }
        classes = CustomerClass.allCases.enumerated().map { ($1, figures[$0]) }
    }

    /// The latest current, purchased, priced transaction of each of a customer's
    /// subscriptions, as (currency, price).
    static func subscriptions(_ activity: borrowing CustomerActivity) -> [(String, Decimal)] {
        var latest: [UInt64: (CustomerActivity.CurrentGrant, CustomerActivity.CurrentGrant.Revenue, Decimal)] = [:]
        for grant in activity.current where !grant.familyShared {
            guard let revenue = grant.revenue, let text = revenue.price, let price = Decimal(string: text),
                price > 0
            else { continue }
            if let kept = latest[revenue.subscription] {
                let later =
                    kept.1.purchaseDate < revenue.purchaseDate
                    || (kept.1.purchaseDate == revenue.purchaseDate
                        && kept.0.transactionID.codePointPrecedes(grant.transactionID))
                guard later else { continue }
            }
            latest[revenue.subscription] = (grant, revenue, price)
        }
        return latest.values.map { ($0.1.currency ?? "XXX", $0.2) }
    }
}
