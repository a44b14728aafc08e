import GrandfatherEngine

/// A row of a `normalize` folder's transactions table read back as a typed record
/// (`MappedTransaction`): SPEC §2's fields by name, as `normalize` wrote them,
/// `is_promotional`, the mark of a grant (SPEC §9) no canonical field carries, `term_ends`,
/// where the run's evidence gave a non-renewing product its term, and `fact_sources`, which
/// source gave each fact (a folder written before it: the folder).
enum WarehouseTransaction {
    /// The fields the table's reader lays a row out in: SPEC §2's, then `is_promotional`,
    /// `term_ends` and `fact_sources`.
    static let fieldNames = TransactionField.allCases.map(\.name) + ["is_promotional", "term_ends", "fact_sources"]
    private static let isPromotional = TransactionField.allCases.count
    private static let termEnds = isPromotional + 1
    private static let factSources = isPromotional + 2

    /// The last `fact_sources` text read and what it says: a folder's rows share a handful,
    /// so each is parsed once per run of rows that repeat it.
    struct Sources {
        fileprivate var text: [UInt8] = []
        fileprivate var provenance = TransactionProvenance(shape: .normalizedFolder)
    }

    /// The row's record, or why it is refused. Its texts are `Texts(row:)`.
    static func read(
        _ row: RawRow, timestamps: TimestampParser, sources: inout Sources
    ) -> Result<MappedTransaction, RowProblem> {
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
            let provenance = try Self.provenance(row, sources: &sources)
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
                    productType: productType, typeSource: provenance.typeSource ?? .record, purchaseDate: purchased,
                    expiresDate: try fields.instant(F.expiresDate.rawValue, name: F.expiresDate.name),
                    revocationDate: try fields.instant(F.revocationDate.rawValue, name: F.revocationDate.name),
                    ownership: try fields.enumeration(
                        F.ownershipType.rawValue, name: F.ownershipType.name, as: OwnershipType.self) ?? .purchased,
                    environment: try fields.environment(F.environment.rawValue, name: F.environment.name),
                    renewalState: try fields.enumeration(
                        F.renewalState.rawValue, name: F.renewalState.name, as: RenewalState.self),
                    gracePeriodExpiresDate: try fields.instant(
                        F.gracePeriodExpiresDate.rawValue, name: F.gracePeriodExpiresDate.name),
                    storePlatform: nil, isPromotional: promotional, provenance: provenance,
                    termEnds: try fields.instant(termEnds, name: "term_ends")))
        } catch {
            return .failure(error)
        }
    }

    /// What the row's `fact_sources` says; the folder itself when it is empty (a folder
    /// written before the column).
    private static func provenance(_ row: RawRow, sources: inout Sources) throws(RowProblem) -> TransactionProvenance {
        guard row.has(factSources) else { return TransactionProvenance(shape: .normalizedFolder) }
        let same = row.withSpan(factSources) { span in
            span.count == sources.text.count && (0..<span.count).allSatisfy { span[$0] == sources.text[$0] }
        }
        if same == true { return sources.provenance }
        let text = row.text(factSources) ?? ""
        guard let provenance = TransactionProvenance(described: text) else {
            throw RowProblem(
                field: "fact_sources", column: row.column(of: factSources),
                reason: "fact_sources is not a list of source shapes: '\(Excerpt.of(text))'")
        }
        sources = Sources(text: Array(text.utf8), provenance: provenance)
        return provenance
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
