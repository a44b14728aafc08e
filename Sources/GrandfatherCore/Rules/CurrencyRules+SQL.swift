/// The SQL twin of `CurrencyRules.swift` (SPEC §4, §8.11, §8.12, §8.24): which transaction is
/// current as of the run, until when, and through what; which has impossible dates. The
/// as-of instant and each product's term are inlined as literals.
extension AuditRules {
    /// `revoked`, `is_current`, `ends_at` and `through_grace` of each row of `rows`, beside
    /// its columns; mirrors `currency(of:revoked:purchased:expires:renewalState:graceExpires:promotional:product:)`.
    func currencySQL(_ sql: SQLContext, rows: String) -> SQLStep {
        let asOf = sql.literal(self.asOf)
        let products = policy.products.keys.sorted { $0.codePointPrecedes($1) }
        let termEnd =
            products.isEmpty
            ? termEndSQL(sql, product: nil)
            : "CASE product_id\n"
                + products.map { "        WHEN \(sql.literal($0)) THEN \(termEndSQL(sql, product: $0))" }
                .joined(separator: "\n") + "\n        ELSE \(termEndSQL(sql, product: nil))\n    END"
        let query = """
            SELECT
                timed.*,
                COALESCE(CASE
                    WHEN revoked THEN FALSE
                    -- A promotional grant: until its expiry, or for good without one (SPEC §9).
                    WHEN is_promotional THEN expires_date IS NULL OR expires_date > \(asOf)
                    WHEN product_type = 'consumable' THEN FALSE
                    WHEN product_type = 'non_consumable' THEN TRUE
                    WHEN product_type = 'non_renewing' THEN term_end > \(asOf)
                    ELSE expires_date > \(asOf)
                        OR (renewal_state = 'in_grace_period' AND grace_period_expires_date > \(asOf))
                END, FALSE) AS is_current,
                CASE
                    WHEN is_promotional THEN expires_date
                    WHEN product_type = 'non_renewing' THEN term_end
                    WHEN product_type = 'auto_renewable' THEN
                        CASE WHEN expires_date > \(asOf) THEN expires_date ELSE grace_period_expires_date END
                END AS ends_at,
                (product_type = 'auto_renewable' AND NOT is_promotional
                    AND NOT COALESCE(expires_date > \(asOf), FALSE)) AS through_grace
            FROM (
                SELECT
                    \(rows).*,
                    (revocation_date IS NOT NULL OR COALESCE(renewal_state = 'revoked', FALSE)) AS revoked,
                    \(termEnd) AS term_end
                FROM \(rows)
            ) AS timed
            """
        return SQLStep(
            name: "currency", spec: "§4, §8.11, §8.12, §9 (promotional)",
            mirrors: "AuditRules.currency (Rules/CurrencyRules.swift)", query: query)
    }

    /// Purchase plus the product's term (`termSeconds(forProduct:)`), held at the last instant
    /// there is, as `Instant.adding(seconds:)` holds it; `nil` product for the default term.
    private func termEndSQL(_ sql: SQLContext, product: String?) -> String {
        let seconds = policy.termSeconds(forProduct: product ?? "")
        let defaultSeconds = Int64(policy.nonRenewingTermDays) * 86_400
        let term = product == nil ? defaultSeconds : seconds
        let last = Instant.supported.upperBound
        let latestStart = last.adding(seconds: -term)
        return "CASE WHEN purchase_date >= \(sql.literal(latestStart)) THEN \(sql.literal(last)) "
            + "ELSE \(sql.adding(seconds: term, to: "purchase_date")) END"
    }

    /// Whether the row's own dates are impossible; mirrors `hasImpossibleDates`.
    func impossibleDatesSQL(_ sql: SQLContext) -> String {
        let asOf = sql.literal(self.asOf)
        return "COALESCE(expires_date < purchase_date, FALSE) OR purchase_date > \(asOf) "
            + "OR COALESCE(revocation_date > \(asOf), FALSE)"
    }
}
