import Foundation

/// The summaries' "revenue at stake": what each class pays for current subscriptions.
enum RevenueSection {
    static let explanation =
        "Customers holding a current, purchased (not family-shared) subscription priced above zero, and the "
        + "latest price of each such subscription, summed per currency (no exchange rates are assumed)."

    /// An amount as plain decimal text: `119.88`, `1200`.
    static func amount(_ value: Decimal) -> String {
        NSDecimalNumber(decimal: value).stringValue
    }

    /// `USD 119.88, EUR 9.99`, or an empty cell.
    static func amounts(_ figures: RevenueAtStake.Figures) -> String {
        figures.currencies.map { "\($0.0) \(amount($0.1))" }.joined(separator: ", ")
    }

    /// The figures in the reporting currency, rounded to hundredths, with any currency the
    /// table lacks named: `EUR 1234.56 (not converted: JPY 800)`.
    static func converted(_ figures: RevenueAtStake.Figures, _ rates: ExchangeRates) -> String {
        let (amount, unconverted) = figures.converted(rates)
        var text = "\(rates.currency) \(RevenueSection.amount(rounded(amount)))"
        if !unconverted.isEmpty {
            text +=
                " (not converted: "
                + unconverted.map { "\($0.0) \(RevenueSection.amount($0.1))" }.joined(separator: ", ") + ")"
        }
        return text
    }

    static func rounded(_ value: Decimal) -> Decimal {
        var value = value
        var result = Decimal()
        NSDecimalRound(&result, &value, 2, .bankers)
        return result
    }

    /// What the fx table is, for the note under the table.
    static func ratesNote(_ rates: ExchangeRates) -> String {
        let list = rates.rates.sorted { $0.key < $1.key }.map { "1 \($0.key) = \(amount($0.value)) \(rates.currency)" }
        return "Converted with the policy's fx table: " + (list.isEmpty ? "no rates" : list.joined(separator: ", "))
            + "."
    }

    static func markdown(_ revenue: RevenueAtStake, rates: ExchangeRates?) -> String {
        var md = "## Revenue at stake\n\n\(explanation)\n\n"
        md += "| class | paying customers | current subscriptions, latest price |"
        md +=
            rates.map { " in \(MarkdownText.literal($0.currency)) |\n| --- | ---: | --- | ---: |\n" }
            ?? "\n| --- | ---: | --- |\n"
        func row(_ name: String, _ figures: RevenueAtStake.Figures) -> String {
            var line = "| \(name) | \(figures.customers) | \(MarkdownText.literal(amounts(figures))) |"
            if let rates { line += " \(MarkdownText.literal(converted(figures, rates))) |" }
            return line + "\n"
        }
        for (customerClass, figures) in revenue.classes { md += row(customerClass.rawValue, figures) }
        md += row("**all**", revenue.total) + "\n"
        if let rates { md += MarkdownText.literal(ratesNote(rates)) + "\n\n" }
        return md
    }
}
