import GrandfatherEngine

/// The SQL twin of `CurrencyRules.swift` (SPEC §4, §8.11, §8.12, §8.24): which transaction is
/// current as of the run, until when, and through what; which has impossible dates. The
/// as-of instant is inlined as a literal, and the term of each product the policy gives one
/// as a row of a literal table the transactions join: a CASE over the products would cost
/// every row a comparison per product. A term the run's evidence gave a product comes as each
/// row's `term_ends`, worked out where the row was normalised.
extension AuditRules {
    /// `revoked`, `is_current`, `ends_at` and `through_grace` of each row of `rows`, beside
    /// its columns; mirrors `currency(of:revoked:purchased:expires:renewalState:graceExpires:promotional:product:)`.
    func currencySQL(_ sql: SQLContext, rows: String) -> SQLStep {
        let asOf = sql.literal(self.asOf)
        let products = policy.products.filter { $0.value.termDays != nil }.keys.sorted { $0.codePointPrecedes($1) }
        let defaultTerm = Int64(policy.nonRenewingTermDays) * 86_400
        let defaultEnd = termEndSQL(
            sql, seconds: String(defaultTerm), latestStart: sql.literal(latestStart(defaultTerm)))
        var termEnd = "COALESCE(term_ends, \(defaultEnd))"
        var terms = ""
        if !products.isEmpty {
            let listed = sql.rows(
                [("product_id", .text), ("term_seconds", .integer), ("latest_start", .timestamp)],
                products.map { product in
                    let seconds = policy.termSeconds(forProduct: product)
                    return [sql.literal(product), String(seconds), sql.literal(latestStart(seconds))]
                })
            terms = "\nLEFT JOIN (\n\(listed)\n) AS terms ON terms.product_id = \(rows).product_id"
            let listedEnd = termEndSQL(sql, seconds: "terms.term_seconds", latestStart: "terms.latest_start")
            termEnd = "CASE WHEN terms.product_id IS NULL THEN \(termEnd) ELSE \(listedEnd) END"
        }
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
                FROM \(rows)\(terms)
            ) AS timed
            """
        return SQLStep(
            name: "currency", spec: "§4, §8.11, §8.12, §9 (promotional)",
            mirrors: "AuditRules.currency (Rules/CurrencyRules.swift)", query: query)
    }

    /// Purchase plus a term of `seconds` (an SQL expression), held at the last instant there
    /// is, as `Instant.adding(seconds:)` holds it: from `latestStart` on, the sum would pass it.
    private func termEndSQL(_ sql: SQLContext, seconds: String, latestStart: String) -> String {
        "CASE WHEN purchase_date >= \(latestStart) THEN \(sql.literal(Instant.supported.upperBound)) "
            + "ELSE \(sql.adding(seconds: seconds, to: "purchase_date")) END"
    }

    /// The latest purchase a term of `seconds` ends from before the last instant there is.
    private func latestStart(_ seconds: Int64) -> Instant {
        Instant.supported.upperBound.adding(seconds: -seconds)
    }

    /// Whether the row's own dates are impossible; mirrors `hasImpossibleDates`.
    func impossibleDatesSQL(_ sql: SQLContext) -> String {
        let asOf = sql.literal(self.asOf)
        return "COALESCE(expires_date < purchase_date, FALSE) OR purchase_date > \(asOf) "
            + "OR COALESCE(revocation_date > \(asOf), FALSE)"
    }
}
