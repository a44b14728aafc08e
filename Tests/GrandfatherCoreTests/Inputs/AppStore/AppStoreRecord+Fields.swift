@testable import GrandfatherCore
@testable import GrandfatherEngine

/// App Store records' values written in SPEC §2's canonical text, so that assertions read as
/// the fields a reviewer knows (`"purchase_date": "2023-10-24T12:01:40Z"`).
extension AppStoreTransaction {
    var fields: [TransactionField: String] {
        var fields: [TransactionField: String] = [:]
        fields[.transactionID] = texts[.transactionID]
        fields[.originalTransactionID] = texts[.originalTransactionID]
        fields[.customerID] = texts[.customerID]
        fields[.productID] = texts[.productID]
        fields[.productType] = values.productType.rawValue
        fields[.purchaseDate] = values.purchaseDate.iso8601
        fields[.expiresDate] = values.expiresDate?.iso8601
        fields[.revocationDate] = values.revocationDate?.iso8601
        fields[.ownershipType] = values.ownership.rawValue
        fields[.environment] = values.environment.rawValue
        fields[.price] = texts[.price]
        fields[.currency] = texts[.currency]
        fields[.renewalState] = values.renewalState?.rawValue
        fields[.gracePeriodExpiresDate] = values.gracePeriodExpiresDate?.iso8601
        return fields
    }

    /// A transaction as the App Store would state it, from canonical text (tests only: the
    /// times must parse).
    init(
        line: Int, fields: [TransactionField: String], appTransactionID: String?, appAccountToken: String?,
        signedDate: Instant?, trust: AppStoreTrust
    ) {
        var texts = OwnedTransactionTexts()
        for text in TransactionText.allCases { texts[text] = fields[text.field] }
        let instant = { (field: TransactionField) in fields[field].flatMap { AppStoreRecordText.instant($0) } }
        self.init(
            line: line, texts: texts,
            values: MappedTransaction(
                productType: fields[.productType].flatMap(ProductType.init(rawValue:)) ?? .consumable,
                typeSource: .record, purchaseDate: instant(.purchaseDate) ?? Instant(microseconds: 0),
                expiresDate: instant(.expiresDate), revocationDate: instant(.revocationDate),
                ownership: fields[.ownershipType].flatMap(OwnershipType.init(rawValue:)) ?? .purchased,
                environment: fields[.environment].flatMap(Environment.init(rawValue:)) ?? .production,
                renewalState: fields[.renewalState].flatMap(RenewalState.init(rawValue:)),
                gracePeriodExpiresDate: instant(.gracePeriodExpiresDate), storePlatform: nil, isPromotional: false,
                provenance: TransactionProvenance(shape: .appStore)),
            appTransactionID: appTransactionID, appAccountToken: appAccountToken, signedDate: signedDate,
            trust: trust)
    }
}

extension AppStoreCustomer {
    var fields: [CustomerField: String] {
        var fields: [CustomerField: String] = [:]
        fields[.customerID] = id
        fields[.platform] = platform?.rawValue
        fields[.originalAppVersion] = originalAppVersion
        fields[.originalPurchaseDate] = originalPurchaseDate?.iso8601
        fields[.preorderDate] = preorderDate?.iso8601
        fields[.environment] = environment.rawValue
        return fields
    }
}

/// Canonical text back to values, for building records in tests.
enum AppStoreRecordText {
    static func instant(_ text: String) -> Instant? {
        try? TimestampParser(defaultZone: nil).parse(text).get()
    }
}
