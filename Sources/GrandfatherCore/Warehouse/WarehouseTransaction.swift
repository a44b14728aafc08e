/// A row of a `normalize` folder's transactions table read back as a typed record
/// (`MappedTransaction`): SPEC §2's fields by name, as `normalize` wrote them, and
/// `is_promotional`, the mark of a grant (SPEC §9) no canonical field carries.
enum WarehouseTransaction {
    /// The fields the table's reader lays a row out in: SPEC §2's, then `is_promotional`.
    static let fieldNames = TransactionField.allCases.map(\.name) + ["is_promotional"]
    private static let isPromotional = TransactionField.allCases.count

    /// The row's record, or why it is refused. Its texts are `Texts(row:)`.
    static func read(_ row: RawRow, timestamps: TimestampParser) -> Result<MappedTransaction, RowProblem> {
        let fields = FieldReader(row: row, timestamps: timestamps)
        typealias F = TransactionField
        do throws(RowProblem) {
            try fields.require(F.transactionID.rawValue, name: F.transactionID.name)
            try fields.require(F.customerID.rawValue, name: F.customerID.name)
            try fields.require(F.productID.rawValue, name: F.productID.name)
            guard
                let productType = try fields.enumeration(
                    F.productType.rawValue, name: F.productType.name, as: ProductType.self)
            else {
                throw RowProblem(field: F.productType.name, column: nil, reason: "missing required field product_type")
            }
            guard let purchased = try fields.instant(F.purchaseDate.rawValue, name: F.purchaseDate.name) else {
                throw RowProblem(
                    field: F.purchaseDate.name, column: nil, reason: "missing required field purchase_date")
            }
            if row.has(F.price.rawValue),
                row.withSpan(F.price.rawValue, { DecimalText.canonical($0) { _ in true } }) != true
            {
                throw RowProblem(
                    field: F.price.name, column: row.column(of: F.price.rawValue),
                    reason: "bad price '\(Excerpt.of(row.text(F.price.rawValue) ?? ""))' (not a decimal)")
            }
            let promotional: Bool
            switch row.text(isPromotional)?.lowercased() {
            case nil, "false": promotional = false
            case "true": promotional = true
            case .some(let other):
                throw RowProblem(
                    field: "is_promotional", column: row.column(of: isPromotional),
                    reason: "is_promotional is not true or false: '\(Excerpt.of(other))'")
            }
            return .success(
                MappedTransaction(
                    productType: productType, typeSource: .record, purchaseDate: purchased,
                    expiresDate: try fields.instant(F.expiresDate.rawValue, name: F.expiresDate.name),
                    revocationDate: try fields.instant(F.revocationDate.rawValue, name: F.revocationDate.name),
                    ownership: try fields.enumeration(
                        F.ownershipType.rawValue, name: F.ownershipType.name, as: OwnershipType.self) ?? .purchased,
                    environment: try fields.environment(F.environment.rawValue, name: F.environment.name),
                    renewalState: try fields.enumeration(
                        F.renewalState.rawValue, name: F.renewalState.name, as: RenewalState.self),
                    gracePeriodExpiresDate: try fields.instant(
                        F.gracePeriodExpiresDate.rawValue, name: F.gracePeriodExpiresDate.name),
                    storePlatform: nil, isPromotional: promotional,
                    provenance: TransactionProvenance(shape: .normalizedFolder)))
        } catch {
            return .failure(error)
        }
    }

    /// The texts of a row `read` accepted: each from its field, the price in canonical form.
    struct Texts: TransactionTexts {
        let row: RawRow

        func read<Result>(_ text: TransactionText, _ body: (Span<UInt8>) -> Result) -> Result? {
            let field = text.field.rawValue
            guard text == .price else { return row.withSpan(field, body) }
            return row.withSpan(field) { DecimalText.canonical($0, body) } ?? nil
        }
    }
}
