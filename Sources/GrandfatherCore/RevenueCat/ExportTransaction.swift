/// One row of RevenueCat's Scheduled Data Export read into plain values, and the rules that
/// lay it out in SPEC §2's transaction fields (the README's "RevenueCat files" mapping).
struct ExportTransaction: Equatable, Sendable {
    var customerID: String
    /// `store_transaction_id`, with `#` and the renewal number for a store whose ids repeat
    /// across renewals (see `transactionID(_:renewal:store:)`).
    var transactionID: String
    var originalTransactionID: String?
    var productID: String
    var productType: ProductType
    var purchased: Instant
    var expires: Instant?
    var revoked: Instant?
    var familyShared: Bool
    var sandbox: Bool
    var price: String?
    var currency: String?
    var renewalState: RenewalState?
    var graceExpires: Instant?
    /// `entitlement_identifiers`: `nil` when the column is missing or empty.
    var entitlements: [String]?
    /// The store as written, lowercased (`app_store`, `play_store`, `stripe`, `promotional`…).
    var store: String
    /// When RevenueCat last changed the row: of two deliveries of one transaction, the later wins.
    var updatedAt: Instant?
    /// What makes two rows deliveries of one transaction: `store_transaction_id` and
    /// `renewal_number`, whatever the store (FORMATS.md §a, "Handling updated transactions").
    var delivery: ExportDeliveries.Key

    /// Stores whose `store_transaction_id` is one per transaction, renewals included
    /// (FORMATS.md §a: "Not unique on Stripe"; the web billing stores work alike). Any other
    /// store's ids are made unique with the renewal number, as RevenueCat recommends.
    static let storesWithUniqueIDs: Set<String> = ["app_store", "mac_app_store", "play_store", "amazon"]

    /// Reads a row, whose columns `value` gives (`nil` or empty when absent).
    /// - Parameter productTypes: the policy's `products[id].type`, which outranks what the
    ///   row says.
    /// - Returns: the transaction, or the reason the row is rejected.
    static func read(
        _ value: (ExportColumn) -> String?, productTypes: [String: ProductType] = [:]
    ) -> Result<ExportTransaction, ExportRowProblem> {
        func text(_ column: ExportColumn) -> String? {
            guard let text = value(column), !text.isEmpty else { return nil }
            return text
        }
        func required(_ column: ExportColumn) throws(ExportRowProblem) -> String {
            guard let text = text(column) else { throw ExportRowProblem(column: column, reason: "is missing") }
            return text
        }
        func time(_ column: ExportColumn) throws(ExportRowProblem) -> Instant? {
            guard let text = text(column) else { return nil }
            guard let instant = RevenueCatValue.time(text.utf8.span) else {
                throw ExportRowProblem(column: column, reason: "is not a time: '\(Excerpt.of(text))'")
            }
            return instant
        }
        func flag(_ column: ExportColumn) throws(ExportRowProblem) -> Bool? {
            guard let text = text(column) else { return nil }
            guard let flag = RevenueCatValue.bool(text.utf8.span) else {
                throw ExportRowProblem(column: column, reason: "is not a boolean: '\(Excerpt.of(text))'")
            }
            return flag
        }
        do throws(ExportRowProblem) {
            let customerID = try required(.appUserID)
            let productID = try required(.productID)
            let store = try required(.store).lowercased()
            let storeTransactionID = try required(.storeTransactionID)
            guard let purchased = try time(.startTime) else {
                throw ExportRowProblem(column: .startTime, reason: "is missing")
            }
            var entitlements: [String]?
            if let listed = text(.entitlementIdentifiers) {
                guard let items = RevenueCatValue.list(listed.utf8.span) else {
                    throw ExportRowProblem(
                        column: .entitlementIdentifiers, reason: "is not a list: '\(Excerpt.of(listed))'")
                }
                entitlements = items
            }
            let renewal = text(.renewalNumber)
            var renewalNumber: Int?
            if let renewal {
                guard let number = Int(renewal) else {
                    throw ExportRowProblem(
                        column: .renewalNumber, reason: "is not a whole number: '\(Excerpt.of(renewal))'")
                }
                renewalNumber = number
            }
            let revoked = try time(.refundedAt)
            let graceEnds = try time(.gracePeriodEndTime)
            let billingIssue = try time(.billingIssuesDetectedAt)
            let autoRenewable = try flag(.isAutoRenewable) ?? false
            let ownership = text(.ownershipType)?.lowercased()
            if let ownership, OwnershipType(rawValue: ownership) == nil {
                throw ExportRowProblem(
                    column: .ownershipType, reason: "is not PURCHASED or FAMILY_SHARED: '\(Excerpt.of(ownership))'")
            }
            return .success(
                ExportTransaction(
                    customerID: customerID,
                    transactionID: transactionID(storeTransactionID, renewal: renewal, store: store),
                    originalTransactionID: text(.originalStoreTransactionID), productID: productID,
                    productType: productTypes[productID]
                        ?? productType(
                            autoRenewable: autoRenewable, hasDuration: text(.productDuration) != nil,
                            hasEntitlements: !(entitlements ?? []).isEmpty),
                    purchased: purchased, expires: try time(.endTime), revoked: revoked,
                    familyShared: ownership == OwnershipType.familyShared.rawValue,
                    sandbox: try flag(.isSandbox) ?? false,
                    price: text(.purchasePriceInPurchasedCurrency) ?? text(.priceInPurchasedCurrency),
                    currency: text(.purchasedCurrency),
                    renewalState: renewalState(revoked: revoked, graceEnds: graceEnds, billingIssue: billingIssue),
                    graceExpires: graceEnds, entitlements: entitlements, store: store, updatedAt: try time(.updatedAt),
                    delivery: ExportDeliveries.Key(storeTransactionID, renewal: renewalNumber)))
        } catch {
            return .failure(error)
        }
    }

    /// The transaction's id: `store_transaction_id`, made unique with `#` and the renewal
    /// number where the store repeats ids across renewals (`ch_1#3`).
    static func transactionID(_ storeTransactionID: String, renewal: String?, store: String) -> String {
        guard let renewal, !storesWithUniqueIDs.contains(store) else { return storeTransactionID }
        return storeTransactionID + "#" + renewal
    }

    /// The product type when the policy does not state it: auto-renewable when the row says
    /// so; else non-renewing when the product has a duration; else non-consumable when it
    /// unlocks an entitlement; else consumable.
    static func productType(autoRenewable: Bool, hasDuration: Bool, hasEntitlements: Bool) -> ProductType {
        if autoRenewable { return .autoRenewable }
        if hasDuration { return .nonRenewing }
        if hasEntitlements { return .nonConsumable }
        return .consumable
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

    /// The row in SPEC §2's transaction fields, as the canonical normalizer reads them.
    var canonicalFields: [TransactionField: String] {
        var fields: [TransactionField: String] = [
            .transactionID: transactionID, .customerID: customerID, .productID: productID,
            .productType: productType.rawValue, .purchaseDate: purchased.iso8601,
            .ownershipType: (familyShared ? OwnershipType.familyShared : .purchased).rawValue,
            .environment: (sandbox ? Environment.sandbox : .production).rawValue,
        ]
        fields[.originalTransactionID] = originalTransactionID
        fields[.expiresDate] = expires?.iso8601
        fields[.revocationDate] = revoked?.iso8601
        fields[.price] = price
        fields[.currency] = currency
        fields[.renewalState] = renewalState?.rawValue
        fields[.gracePeriodExpiresDate] = graceExpires?.iso8601
        return fields
    }
}

/// Why a row of a RevenueCat export cannot be read: the column and what is wrong with it.
struct ExportRowProblem: Error, Equatable, Sendable {
    var column: ExportColumn
    var reason: String

    /// `store_transaction_id is missing`.
    var description: String { column.name + " " + reason }
}
