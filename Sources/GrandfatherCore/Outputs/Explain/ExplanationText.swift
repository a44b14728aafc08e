/// `grandfather explain`'s output: a readable account of one customer, in plain text for a
/// person. Sections: the facts used, the transactions considered, the entitlements, the flags,
/// and the class with the rule that decided it.
public enum ExplanationText {
    /// Renders an explanation; `snapshot` is the path as the reader gave it.
    public static func render(_ explanation: Explanation, snapshot: String) -> String {
        var lines: [String] = []
        header(explanation, snapshot: snapshot, into: &lines)
        lines.append("")
        lines.append("Facts")
        facts(explanation, into: &lines)
        lines.append("")
        lines.append("Transactions considered (as of \(explanation.run.asOf.iso8601))")
        transactions(explanation, into: &lines)
        lines.append("")
        lines.append("Entitlements")
        entitlements(explanation, into: &lines)
        lines.append("")
        lines.append("Flags")
        if explanation.flags.isEmpty { lines.append("  none") }
        for flag in explanation.flags {
            lines.append("  \(flag.code) (\(flag.severity)): \(flag.explanation)")
        }
        lines.append("")
        lines.append("Class")
        lines.append("  " + classLine(explanation))
        return lines.joined(separator: "\n") + "\n"
    }

    private static func header(_ explanation: Explanation, snapshot: String, into lines: inout [String]) {
        let run = explanation.run
        let policy = explanation.policy
        lines.append(
            "Customer \(PlainText.escaped(explanation.facts.customerID)): \(explanation.customerClass.rawValue)")
        lines.append(fact("snapshot", "\(PlainText.escaped(snapshot)) (schema version \(explanation.schemaVersion))"))
        lines.append(fact("run", "\(run.runID), as of \(run.asOf.iso8601)"))
        let name = run.policyName.map { PlainText.escaped($0) + " " } ?? ""
        lines.append(fact("policy", name + "(sha256 \(run.policyDigest.prefix(12)))"))
        let window = PlainText.duration(microseconds: policy.edgeWindowSeconds * 1_000_000, days: false)
        lines.append(
            fact(
                "cutover",
                "\(policy.cutover.date.iso8601), basis \(policy.cutover.basis.rawValue), edge windows of \(window)"))
    }

    private static func facts(_ explanation: Explanation, into lines: inout [String]) {
        let facts = explanation.facts
        lines.append(fact("platform", facts.platform ?? "unknown"))
        versionFacts(explanation, into: &lines)
        dateFacts(explanation, into: &lines)
        lines.append(fact("environment", facts.environment.rawValue))
        if facts.environment == .sandbox {
            lines.append(fact("", "a sandbox customer is excluded before any comparison (SPEC §8.9)"))
        }
        lines.append(
            fact(
                "orphan",
                facts.isOrphan
                    ? "yes: transactions without a customer record, so platform, version and dates are unknown"
                    : "no"))
        lines.append(fact("preorder_date", facts.preorderDate?.iso8601 ?? "none"))
        lines.append(fact("storefront", facts.storefront.map(PlainText.escaped) ?? "none"))
    }

    private static func transactions(_ explanation: Explanation, into lines: inout [String]) {
        guard let transactions = explanation.transactions else {
            lines.append(
                "  not recorded: this snapshot was written before the transactions table (schema version "
                    + "\(explanation.schemaVersion)); run the audit again to record them")
            return
        }
        if transactions.isEmpty { lines.append("  " + noTransaction(explanation)) }
        for transaction in transactions {
            var title = "  " + PlainText.escaped(transaction.transactionID)
            if let product = transaction.productID { title += "  " + PlainText.escaped(product) }
            title += "  " + transaction.productType.rawValue
            if let familyShared = transaction.familyShared {
                // A promotion (SPEC §9) was granted, not bought: its grants say so.
                let promoted = explanation.grants(through: transaction.transactionID).contains {
                    $0.source == .promotional
                }
                title +=
                    ", "
                    + (promoted
                        ? EntitlementSource.promotional.rawValue
                        : (familyShared ? OwnershipType.familyShared : OwnershipType.purchased).rawValue)
            }
            if let purchased = transaction.purchaseDate { title += ", bought " + purchased.iso8601 }
            if !transaction.isCurrent { title += " (the latest auto-renewable)" }
            lines.append(title)
            lines.append("    " + status(transaction, explanation))
            lines.append("    " + grantsLine(transaction, explanation))
            if let sources = transaction.factSources { lines.append("    " + sourcesLine(sources)) }
        }
        lines.append("  (the snapshot keeps only the transactions that decided: the current ones, and the latest")
        lines.append("  auto-renewable behind billing_retry; sandbox transactions take no part in anything)")
    }

    /// Why no transaction is listed.
    private static func noTransaction(_ explanation: Explanation) -> String {
        switch explanation.customerClass {
        case .excluded:
            return "none: a sandbox customer's transactions decide nothing"
        case .grandfathered, .subscriber:
            return "none is current"
        case .lapsed:
            return "none is current; the ones that ended (expired, revoked or past their term) are not kept"
        case .new:
            let consumables = explanation.flags.contains { $0.code == Flag.consumableOnly.code }
            return consumables ? "none but consumables, which are never current" : "none"
        }
    }

    /// Whether a transaction is current as of the run, and why.
    static func status(_ transaction: Explanation.DecidingTransaction, _ explanation: Explanation) -> String {
        let asOf = explanation.run.asOf.iso8601
        guard transaction.isCurrent else {
            let state = transaction.renewalState.map { "; renewal_state \($0.rawValue)" } ?? ""
            if transaction.renewalState == .revoked { return "not current: revoked" + state }
            return "not current as of \(asOf): no expiry or grace end after it, or revoked" + state
        }
        guard let until = transaction.currentUntil else {
            return "current: a non-consumable that is not revoked never expires"
        }
        if transaction.throughGrace {
            return "in grace period until \(until.iso8601): its expiry is not after the as-of, but renewal_state "
                + "in_grace_period with a grace end after it"
        }
        switch transaction.productType {
        case .nonRenewing:
            let product = transaction.productID ?? ""
            guard explanation.policy.products[product]?.termDays != nil else {
                // The term is its product's in the run (an export's product_duration) or the
                // policy's default: the snapshot keeps the end, not which.
                return "current: non-renewing term ends \(until.iso8601) (its product's term: the export's "
                    + "product_duration, else the end a subscriber response's entitlement shows, where stated; "
                    + "else non_renewing_term_days \(explanation.policy.nonRenewingTermDays) d)"
            }
            let term = explanation.policy.termSeconds(forProduct: product)
            let bought = until.adding(seconds: -term).iso8601
            return "current: non-renewing term ends \(until.iso8601) (bought \(bought), term \(term / 86_400) d)"
        default:
            return "current until \(until.iso8601): its expires_date is after the as-of"
        }
    }

    /// A transaction in a few words, for the class line.
    static func brief(_ transaction: Explanation.DecidingTransaction) -> String {
        var text = PlainText.escaped(transaction.transactionID) + ", " + transaction.productType.rawValue + ", "
        guard let until = transaction.currentUntil else { return text + "never expires" }
        if transaction.throughGrace {
            text += "in grace period until "
        } else {
            text += transaction.productType == .nonRenewing ? "term ends " : "current until "
        }
        return text + until.iso8601
    }

    /// Which source gave its facts, from the snapshot's `fact_sources`
    /// (`TransactionProvenance.described`, read back by its own parser): the record's shape,
    /// then the facts another shape stated, grouped by that shape in the order they come; the
    /// text as it is when it is not one.
    static func sourcesLine(_ described: String) -> String {
        guard let provenance = TransactionProvenance(described: described) else {
            return "facts from " + PlainText.escaped(described)
        }
        var named: [(fact: String, source: String)] = TransactionFact.allCases.compactMap { fact in
            guard let source = provenance.source(of: fact), source != provenance.shape else { return nil }
            return (fact.name, source.code)
        }
        if let type = provenance.typeSource, type != .record { named.append(("product_type", type.code)) }
        var groups: [(source: String, facts: [String])] = []
        for (fact, source) in named {
            if let index = groups.firstIndex(where: { $0.source == source }) {
                groups[index].facts.append(fact)
            } else {
                groups.append((source, [fact]))
            }
        }
        var text = "facts from " + provenance.shape.code
        for group in groups { text += "; " + group.facts.joined(separator: ", ") + " from " + group.source }
        return text
    }

    private static func grantsLine(_ transaction: Explanation.DecidingTransaction, _ explanation: Explanation) -> String
    {
        guard transaction.isCurrent else { return "grants nothing now" }
        let grants = explanation.grants(through: transaction.transactionID)
        let product = transaction.productID.map(PlainText.escaped) ?? "its product"
        let known = transaction.productID.map { explanation.policy.products[$0] != nil } ?? true
        guard !grants.isEmpty else { return "grants nothing: the policy gives \(product) no entitlements" }
        var text =
            "grants "
            + grants.map { "\(PlainText.escaped($0.entitlement)) (\($0.source.rawValue))" }
            .joined(separator: ", ")
        if !known {
            // A product the policy does not list grants what its rows name (a RevenueCat
            // export's entitlement_identifiers), else the grandfathered entitlements.
            let fallback = Set(grants.map(\.entitlement)) == Set(explanation.policy.grandfatheredEntitlements)
            text +=
                ": \(product) is not in the policy's products, so "
                + (fallback ? "grandfathered_entitlements" : "what its rows name (entitlement_identifiers)")
        }
        return text
    }

    private static func entitlements(_ explanation: Explanation, into lines: inout [String]) {
        if explanation.grants.isEmpty { lines.append("  none") }
        for grant in explanation.grants {
            var text = "  \(PlainText.escaped(grant.entitlement)): \(grant.source.rawValue)"
            if let transaction = grant.transactionID {
                text += " through \(PlainText.escaped(transaction)), "
                text += grant.expiresDate.map { "until \($0.iso8601)" } ?? "never expires"
            } else {
                text += ", bought before the cutover (grandfathered_entitlements)"
            }
            lines.append(text)
        }
    }
}
