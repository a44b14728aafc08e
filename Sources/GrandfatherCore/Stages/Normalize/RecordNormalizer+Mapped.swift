import GrandfatherEngine

extension RecordNormalizer {
    /// Appends a transaction a source read itself (`MappedTransaction`) to `batch`, or says
    /// why it is refused (and leaves `batch` as it was). Its values are typed already; only
    /// its texts are checked here, as every reader checks a row's: the required ones present,
    /// none longer than `RawRow.maximumFieldBytes`, none holding a NUL byte or invalid UTF-8.
    func transaction(
        _ record: MappedTransaction, texts: some TransactionTexts, into batch: inout TransactionBatch
    ) -> RowProblem? {
        let mark = batch.byteCount
        // A fixed array, not an allocated one: this runs once per row of an export.
        var stored = InlineArray<6, TextRef>(repeating: .absent)
        for raw in 0..<stored.count {
            guard let text = TransactionText(rawValue: raw) else { continue }
            let field = text.field.name
            let result: Result<TextRef, RowProblem>? = texts.read(text) { bytes in
                if let problem = TextBytes.problem(bytes, as: text.kind) {
                    return .failure(RowProblem(field: field, column: nil, reason: problem.reason(field)))
                }
                return .success(batch.store(bytes))
            }
            switch result {
            case nil:
                if text == .transactionID || text == .customerID || text == .productID {
                    batch.truncate(to: mark)
                    return RowProblem(field: field, column: nil, reason: "missing required field \(field)")
                }
            case .success(let reference)?:
                stored[text.rawValue] = reference
            case .failure(let problem)?:
                batch.truncate(to: mark)
                return problem
            }
        }
        var customerID = stored[TransactionText.customerID.rawValue]
        if !identities.isEmpty, let id = batch.string(customerID), let merged = identities[id] {
            customerID = batch.store(merged)
        }
        var currency = stored[TransactionText.currency.rawValue]
        if !currency.isAbsent { currency = batch.uppercase(currency) }
        var provenance = record.provenance
        provenance.typeSource = record.typeSource
        batch.append(
            Transaction(
                transactionID: stored[TransactionText.transactionID.rawValue],
                originalTransactionID: stored[TransactionText.originalTransactionID.rawValue],
                customerID: customerID, productID: stored[TransactionText.productID.rawValue],
                productType: record.productType, purchaseDate: record.purchaseDate, expiresDate: record.expiresDate,
                revocationDate: record.revocationDate, ownership: record.ownership, environment: record.environment,
                price: stored[TransactionText.price.rawValue], currency: currency, renewalState: record.renewalState,
                gracePeriodExpiresDate: record.gracePeriodExpiresDate, storePlatform: record.storePlatform,
                isPromotional: record.isPromotional, provenance: provenance, termEnds: record.termEnds))
        return nil
    }
}
