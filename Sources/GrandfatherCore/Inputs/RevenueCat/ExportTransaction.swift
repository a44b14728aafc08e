import GrandfatherEngine

/// One row of RevenueCat's Scheduled Data Export read into plain values, and the rules that
/// lay it out in SPEC §2's transaction fields (the docs/RevenueCat.md's "RevenueCat files" mapping).
///
/// The texts a row hands on unchanged (ids, price, currency) are not copied into the value:
/// `layOut` copies them from the row straight into the canonical fields, so that reading ten
/// million rows makes no string per field.
struct ExportTransaction: Equatable, Sendable {
    /// The policy's type for the product, else what the row states, else consumable; the
    /// run's evidence of the product may overrule it (`ProductFactRules`).
    var productType: ProductType
    /// What the row states of its product's type, `nil` when nothing: auto-renewable when
    /// `is_auto_renewable` says so; else non-renewing when it has a `product_duration`; else
    /// non-consumable when it unlocks an entitlement.
    var statedType: ProductType?
    /// What `productType` rests on.
    var typeSource: ProductTypeSource
    var purchased: Instant
    var expires: Instant?
    var revoked: Instant?
    var familyShared: Bool
    var sandbox: Bool
    /// Which column the price comes from: the gross price when the row has one.
    var priceColumn: ExportColumn?
    var renewalState: RenewalState?
    var graceExpires: Instant?
    /// `entitlement_identifiers`: `nil` when the column is missing or empty.
    var entitlements: [String]?
    var store: ExportStore
    /// `renewal_number`, when the row has one.
    var renewalNumber: Int?
    /// When RevenueCat last changed the row: of two deliveries of one transaction, the later wins.
    var updatedAt: Instant?
    /// What makes two rows deliveries of one transaction: `store_transaction_id`, with
    /// `renewal_number` for a store whose ids repeat (FORMATS.md §a, "Handling updated
    /// transactions").
    var delivery: ExportDeliveries.Key

    /// Reads a row.
    /// - Parameter productTypes: the policy's `products[id].type`, which outranks what the
    ///   row says.
    /// - Returns: the transaction, or the reason the row is rejected.
    static func read<Values: ExportValues>(
        _ row: Values, productTypes: [String: ProductType] = [:]
    ) -> Result<ExportTransaction, ExportRowProblem> {
        func time(_ column: ExportColumn) throws(ExportRowProblem) -> Instant? {
            switch row.read(column, RevenueCatValue.time) {
            case nil: return nil
            case .some(let instant?): return instant
            case .some(nil): throw ExportRowProblem(column: column, value: row.text(column), reason: "is not a time")
            }
        }
        func flag(_ column: ExportColumn) throws(ExportRowProblem) -> Bool? {
            switch row.read(column, RevenueCatValue.bool) {
            case nil: return nil
            case .some(let flag?): return flag
            case .some(nil): throw ExportRowProblem(column: column, value: row.text(column), reason: "is not a boolean")
            }
        }
        func require(_ column: ExportColumn) throws(ExportRowProblem) {
            guard row.has(column) else { throw ExportRowProblem(column: column, reason: "is missing") }
        }
        do throws(ExportRowProblem) {
            try require(.appUserID)
            try require(.productID)
            try require(.store)
            try require(.storeTransactionID)
            guard let purchased = try time(.startTime) else {
                throw ExportRowProblem(column: .startTime, reason: "is missing")
            }
            let store = row.read(.store, ExportStore.read) ?? .other
            var entitlements: [String]?
            switch row.read(.entitlementIdentifiers, RevenueCatValue.list) {
            case nil: break
            case .some(let items?):
                // Each entitlement a row names is an id the reports and the snapshot show: it
                // passes the one rule (`TextBytes`), as the row's other ids do.
                if let problem = items.lazy.compactMap({ TextBytes.problem($0, as: .identifier) }).first {
                    throw ExportRowProblem(
                        column: .entitlementIdentifiers, value: row.text(.entitlementIdentifiers),
                        reason: "holds an entitlement that " + problem.complaint)
                }
                entitlements = items
            case .some(nil):
                throw ExportRowProblem(
                    column: .entitlementIdentifiers, value: row.text(.entitlementIdentifiers), reason: "is not a list")
            }
            var renewalNumber: Int?
            switch row.read(.renewalNumber, RevenueCatValue.wholeNumber) {
            case nil: break
            case .some(let number?): renewalNumber = number
            case .some(nil):
                throw ExportRowProblem(
                    column: .renewalNumber, value: row.text(.renewalNumber), reason: "is not a whole number")
            }
            let revoked = try time(.refundedAt)
            let graceEnds = try time(.gracePeriodEndTime)
            let billingIssue = try time(.billingIssuesDetectedAt)
            let autoRenewable = try flag(.isAutoRenewable) ?? false
            var familyShared = false
            switch row.read(.ownershipType, ownership) {
            case nil: break
            case .some(let shared?): familyShared = shared
            case .some(nil):
                throw ExportRowProblem(
                    column: .ownershipType, value: row.text(.ownershipType), reason: "is not PURCHASED or FAMILY_SHARED"
                )
            }
            let priceColumn: ExportColumn? =
                row.has(.purchasePriceInPurchasedCurrency)
                ? .purchasePriceInPurchasedCurrency
                : row.has(.priceInPurchasedCurrency) ? .priceInPurchasedCurrency : nil
            if let priceColumn, row.read(priceColumn, { DecimalText.canonical($0) { _ in true } ?? false }) != true {
                throw ExportRowProblem(column: priceColumn, value: row.text(priceColumn), reason: "is not a decimal")
            }
            let policyType = productTypes.isEmpty ? nil : row.text(.productID).flatMap { productTypes[$0] }
            // A store whose ids are one per transaction needs no renewal number to tell them
            // apart, and a subscriber response's purchase, which has none, is then the same key.
            let key = row.read(.storeTransactionID) {
                ExportDeliveries.Key($0, renewal: store.hasUniqueTransactionIDs ? nil : renewalNumber)
            }
            let stated = statedType(
                autoRenewable: autoRenewable, hasDuration: row.has(.productDuration),
                hasEntitlements: !(entitlements ?? []).isEmpty)
            return .success(
                ExportTransaction(
                    productType: policyType ?? stated ?? .consumable, statedType: stated,
                    typeSource: policyType != nil ? .policy : stated != nil ? .export : .fallback,
                    purchased: purchased, expires: try time(.endTime), revoked: revoked, familyShared: familyShared,
                    sandbox: try flag(.isSandbox) ?? false,
                    priceColumn: priceColumn,
                    renewalState: renewalState(revoked: revoked, graceEnds: graceEnds, billingIssue: billingIssue),
                    graceExpires: graceEnds, entitlements: entitlements, store: store, renewalNumber: renewalNumber,
                    updatedAt: try time(.updatedAt), delivery: key ?? ExportDeliveries.Key(hash: 0)))
        } catch {
            return .failure(error)
        }
    }

    /// `PURCHASED` or `FAMILY_SHARED`, in any case: whether the row is family-shared.
    private static func ownership(_ bytes: Span<UInt8>) -> Bool? {
        if RevenueCatValue.spells(bytes, "purchased") { return false }
        if RevenueCatValue.spells(bytes, "family_shared") { return true }
        return nil
    }

    /// What a row states of its product's type: auto-renewable when it says so; else
    /// non-renewing when the product has a duration; else non-consumable when it unlocks an
    /// entitlement; else nothing (SPEC §8.12's fallback, consumable, applies).
    static func statedType(autoRenewable: Bool, hasDuration: Bool, hasEntitlements: Bool) -> ProductType? {
        if autoRenewable { return .autoRenewable }
        if hasDuration { return .nonRenewing }
        if hasEntitlements { return .nonConsumable }
        return nil
    }

    /// Notes what the row says of its product's type.
    func note<Values: ExportValues>(_ row: Values, source: ProductEvidence.Source, into evidence: inout ProductEvidence)
    {
        let duration = row.read(.productDuration) { ProductDuration(iso8601: $0) } ?? nil
        _ = row.read(.productID) {
            evidence.note(product: $0, source: source, stated: statedType, duration: duration)
        }
    }

    /// The renewal state: revoked once refunded; in a grace period when the row has a grace
    /// end (RevenueCat keeps it after the period, and a grace end before as-of is then not
    /// current, SPEC §8.11); in billing retry when a billing issue was detected; else none.
    static func renewalState(revoked: Instant?, graceEnds: Instant?, billingIssue: Instant?) -> RenewalState? {
        if revoked != nil { return .revoked }
        if graceEnds != nil { return .inGracePeriod }
        if billingIssue != nil { return .inBillingRetry }
        return nil
    }

    /// Notes what the row says its product unlocks, when it says anything.
    func note<Values: ExportValues>(_ row: Values, into rows: inout RowEntitlements) {
        guard let entitlements, !entitlements.isEmpty, let product = row.text(.productID) else { return }
        rows.note(product: product, entitlements)
    }

    /// The transaction as a typed record of `shape`: the platform of its store (`appStore` the
    /// platform `app_store` stands for), and whether it is a `promotional` grant (SPEC §9).
    func mapped(shape: TransactionShape, appStore: Platform = .ios) -> MappedTransaction {
        MappedTransaction(
            productType: productType, typeSource: typeSource, purchaseDate: purchased, expiresDate: expires,
            revocationDate: revoked,
            ownership: familyShared ? .familyShared : .purchased, environment: sandbox ? .sandbox : .production,
            renewalState: renewalState, gracePeriodExpiresDate: graceExpires,
            storePlatform: store.platform(appStore: appStore), isPromotional: store == .promotional,
            provenance: TransactionProvenance(shape: shape))
    }

    /// Writes the row's texts into the fields `MappedSpill` keeps them in, copied from the row:
    /// the transaction id is `store_transaction_id`, with `#` and the renewal number for a
    /// store whose ids repeat across renewals (`ch_1#3`); the price in its canonical form.
    func writeTexts<Values: ExportValues, Writer: FieldWriter>(_ row: Values, into writer: inout Writer) {
        func copy(_ column: ExportColumn, to text: TransactionText) {
            _ = row.read(column) { writer.set(MappedSpill.field(of: text), bytes: $0) }
        }
        copy(.storeTransactionID, to: .transactionID)
        if !store.hasUniqueTransactionIDs, renewalNumber != nil {
            let field = MappedSpill.field(of: .transactionID)
            writer.append(field, bytes: "#".utf8.span)
            _ = row.read(.renewalNumber) { writer.append(field, bytes: $0) }
        }
        copy(.originalStoreTransactionID, to: .originalTransactionID)
        copy(.appUserID, to: .customerID)
        copy(.productID, to: .productID)
        if let priceColumn {
            _ = row.read(priceColumn) { price in
                DecimalText.canonical(price) { writer.set(MappedSpill.field(of: .price), bytes: $0) }
            }
        }
        copy(.purchasedCurrency, to: .currency)
    }
}

/// Why a row of a RevenueCat export cannot be read: the column and what is wrong with it.
struct ExportRowProblem: Error, Equatable, Sendable {
    var column: ExportColumn
    var reason: String

    init(column: ExportColumn, reason: String) {
        self.column = column
        self.reason = reason
    }

    /// A problem with a value, which the reason quotes: `is not a time: '20/10/2026'`.
    init(column: ExportColumn, value: String?, reason: String) {
        self.init(column: column, reason: reason + ": '\(Excerpt.of(value ?? ""))'")
    }

    /// `store_transaction_id is missing`.
    var description: String { column.name + " " + reason }
}
