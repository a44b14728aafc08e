import GrandfatherEngine

/// Turns raw rows into domain records (SPEC §8.5): required fields present, enums known,
/// every present timestamp valid, prices decimal. The first problem in field order rejects
/// the row. Each field's bytes are read by `FieldReader` (FieldReader.swift, beside it).
struct RecordNormalizer: Sendable {
    let timestamps: TimestampParser
    /// Merged customer ids and the customer each names now (`CustomerIdentities.resolved`):
    /// a record's `customer_id` is filed under its customer's. Empty in most runs.
    var identities: [String: String] = [:]
    /// The id a record of `id` is filed under.
    func customerID(_ id: String) -> String {
        identities.isEmpty ? id : identities[id] ?? id
    }

    /// Every canonical row's provenance: every fact, and the product type, its own.
    private static let canonicalRow = {
        var provenance = TransactionProvenance(shape: .canonical)
        provenance.typeSource = .record
        return provenance
    }()

    /// A customer, or why the row is rejected.
    func customer(_ row: RawRow) -> Result<Customer, RowProblem> {
        let fields = FieldReader(row: row, timestamps: timestamps)
        do throws(RowProblem) {
            typealias F = CustomerField
            let id = try fields.required(F.customerID.rawValue, name: F.customerID.name, as: .identifier)
            guard
                let platform = try fields.enumeration(
                    F.platform.rawValue, name: F.platform.name, as: Platform.self)
            else {
                throw RowProblem(field: F.platform.name, column: nil, reason: "missing required field platform")
            }
            // Read by the sink as a claim; checked here as every field is, so that an object or
            // an array is a rejected row rather than no claim at all.
            _ = try fields.text(F.orderNumber.rawValue, name: F.orderNumber.name, as: .identifier)
            return .success(
                Customer(
                    id: customerID(id),
                    platform: platform,
                    originalAppVersion: try fields.text(
                        F.originalAppVersion.rawValue, name: F.originalAppVersion.name, as: .value),
                    originalPurchaseDate: try fields.instant(
                        F.originalPurchaseDate.rawValue, name: F.originalPurchaseDate.name),
                    environment: try fields.environment(F.environment.rawValue, name: F.environment.name),
                    preorderDate: try fields.instant(F.preorderDate.rawValue, name: F.preorderDate.name),
                    storefront: try fields.text(F.storefront.rawValue, name: F.storefront.name, as: .value)))
        } catch {
            return .failure(error)
        }
    }

    /// Appends the row's transaction to `batch`, or says why the row is rejected (and
    /// leaves `batch` as it was).
    func transaction(_ row: RawRow, into batch: inout TransactionBatch) -> RowProblem? {
        let fields = FieldReader(row: row, timestamps: timestamps)
        let mark = batch.byteCount
        do throws(RowProblem) {
            typealias F = TransactionField
            // Checked in this order, before any other field; one call each, not a loop over a
            // static array, whose access and retain per row cost more than the checks.
            try fields.require(F.transactionID.rawValue, name: F.transactionID.name)
            try fields.require(F.customerID.rawValue, name: F.customerID.name)
            try fields.require(F.productID.rawValue, name: F.productID.name)
            try fields.require(F.productType.rawValue, name: F.productType.name)
            try fields.require(F.purchaseDate.rawValue, name: F.purchaseDate.name)
            let transactionID = try fields.text(
                F.transactionID.rawValue, name: F.transactionID.name, as: .identifier, into: &batch)
            let originalID = try fields.text(
                F.originalTransactionID.rawValue, name: F.originalTransactionID.name, as: .identifier, into: &batch)
            var customerID = try fields.text(
                F.customerID.rawValue, name: F.customerID.name, as: .identifier, into: &batch)
            if !identities.isEmpty, let id = batch.string(customerID), let merged = identities[id] {
                customerID = batch.store(merged)
            }
            let productID = try fields.text(
                F.productID.rawValue, name: F.productID.name, as: .identifier, into: &batch)
            guard
                let productType = try fields.enumeration(
                    F.productType.rawValue, name: F.productType.name, as: ProductType.self),
                let purchaseDate = try fields.instant(F.purchaseDate.rawValue, name: F.purchaseDate.name)
            else { throw RowProblem(field: nil, column: nil, reason: "missing required field") }
            let expiresDate = try fields.instant(F.expiresDate.rawValue, name: F.expiresDate.name)
            let revocationDate = try fields.instant(F.revocationDate.rawValue, name: F.revocationDate.name)
            let ownership =
                try fields.enumeration(F.ownershipType.rawValue, name: F.ownershipType.name, as: OwnershipType.self)
                ?? .purchased
            let environment = try fields.environment(F.environment.rawValue, name: F.environment.name)
            let price = try fields.decimal(F.price.rawValue, name: F.price.name, into: &batch)
            var currency = try fields.text(F.currency.rawValue, name: F.currency.name, as: .value, into: &batch)
            if !currency.isAbsent {
                currency = batch.uppercase(currency)
            }
            let renewalState = try fields.enumeration(
                F.renewalState.rawValue, name: F.renewalState.name, as: RenewalState.self)
            let grace = try fields.instant(F.gracePeriodExpiresDate.rawValue, name: F.gracePeriodExpiresDate.name)
            batch.append(
                Transaction(
                    transactionID: transactionID, originalTransactionID: originalID, customerID: customerID,
                    productID: productID, productType: productType, purchaseDate: purchaseDate,
                    expiresDate: expiresDate, revocationDate: revocationDate, ownership: ownership,
                    environment: environment, price: price, currency: currency, renewalState: renewalState,
                    gracePeriodExpiresDate: grace, provenance: Self.canonicalRow))
            return nil
        } catch {
            batch.truncate(to: mark)
            return error
        }
    }
}
