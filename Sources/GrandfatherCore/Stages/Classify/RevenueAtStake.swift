import Foundation
import GrandfatherEngine

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
        // Each core counts its customers' subscriptions by class, currency and price text;
        // the prices are then parsed and multiplied once per distinct key. Decimal sums of
        // such prices are exact, so the figures are those of adding each price in turn.
        let tallies = Parallel.mapParts(count: results.count) { range in
            var tally = Tally()
            results.forEachActivity(in: range) { verdict, activity in
                let paid = Self.subscriptions(activity, prices: &tally.prices)
                guard !paid.isEmpty else { return }
                let index = CustomerClass.allCases.firstIndex(of: verdict.customerClass) ?? 0
                tally.customers[index] += 1
                for (currency, price) in paid { tally.counts[PriceKey(index, currency, price), default: 0] += 1 }
            }
            return tally
        }
        var figures = [Figures](repeating: Figures(), count: CustomerClass.allCases.count)
        var prices: [String: Decimal] = [:]
        for tally in tallies {
            for index in figures.indices { figures[index].customers += tally.customers[index] }
            prices.merge(tally.prices.compactMapValues { $0 }) { first, _ in first }
        }
        var counts: [PriceKey: Int] = [:]
        for tally in tallies { counts.merge(tally.counts, uniquingKeysWith: +) }
        for (key, count) in counts {
            guard let price = prices[key.price] else { continue }
            figures[key.classIndex].byCurrency[key.currency, default: 0] += price * Decimal(count)
        }
        classes = CustomerClass.allCases.enumerated().map { ($1, figures[$0]) }
    }

    /// One class's subscriptions at one price in one currency.
    private struct PriceKey: Hashable {
        var classIndex: Int
        var currency: String
        var price: String

        init(_ classIndex: Int, _ currency: String, _ price: String) {
            self.classIndex = classIndex
            self.currency = currency
            self.price = price
        }
    }

    /// What one core counted.
    private struct Tally: Sendable {
        var customers = [Int](repeating: 0, count: CustomerClass.allCases.count)
        var counts: [PriceKey: Int] = [:]
        /// Each price text parsed once; `nil` when it is not a number.
        var prices: [String: Decimal?] = [:]
    }

    /// The latest current, purchased, priced transaction of each of a customer's
    /// subscriptions, as (currency, price).
    static func subscriptions(_ activity: borrowing CustomerActivity) -> [(String, Decimal)] {
        var prices: [String: Decimal?] = [:]
        return subscriptions(activity, prices: &prices).compactMap { currency, text in
            prices[text].flatMap { $0 }.map { (currency, $0) }
        }
    }

    /// The same as (currency, price text), with each text parsed once into `prices`.
    private static func subscriptions(
        _ activity: borrowing CustomerActivity, prices: inout [String: Decimal?]
    ) -> [(String, String)] {
        var only: Priced?
        var latest: [UInt64: Priced] = [:]
        for index in activity.current.indices where !activity.current[index].familyShared {
            guard let revenue = activity.current[index].revenue, let text = revenue.price else { continue }
            let grant = activity.current[index]
            let parsed: Decimal?
            if let known = prices[text] {
                parsed = known
            } else {
                parsed = Decimal(string: text)
                prices[text] = parsed
            }
            guard let price = parsed, price > 0 else { continue }
            let candidate = Priced(grant: grant, revenue: revenue, text: text, price: price)
            // Most customers hold one such transaction: no table for them.
            guard let first = only else {
                only = candidate
                continue
            }
            if latest.isEmpty { latest[first.revenue.subscription] = first }
            if let kept = latest[revenue.subscription], !candidate.isLater(than: kept) { continue }
            latest[revenue.subscription] = candidate
        }
        guard latest.isEmpty else { return latest.values.map { ($0.currency, $0.text) } }
        return only.map { [($0.currency, $0.text)] } ?? []
    }

    /// A current transaction with its parsed price.
    private struct Priced {
        var grant: CustomerActivity.CurrentGrant
        var revenue: CustomerActivity.CurrentGrant.Revenue
        var text: String
        var price: Decimal

        var currency: String { revenue.currency ?? "XXX" }

        /// Later by purchase date, then transaction id; of two copies of one transaction that
        /// differ (a conflicting duplicate), the higher price, then the later currency code, so
        /// that the order the copies were read in never shows.
        func isLater(than kept: Priced) -> Bool {
            if kept.revenue.purchaseDate != revenue.purchaseDate {
                return kept.revenue.purchaseDate < revenue.purchaseDate
            }
            if kept.grant.transactionID != grant.transactionID {
                return kept.grant.transactionID.precedes(grant.transactionID)
            }
            if kept.price != price { return kept.price < price }
            return kept.currency.codePointPrecedes(currency)
        }
    }
}
