import GrandfatherEngine

/// A transaction as a row of the warehouse layout (`WarehouseLayout`), in the engine's plain
/// cells. A normalized run writes one row per accepted transaction, tens of millions of them,
/// so a row is formatted straight from its batch's bytes.
extension ByteBuffer {
    /// Appends the transaction at `row` of `batch` in `WarehouseLayout.transactions`' columns.
    /// `sources` keeps each provenance's cell as it is first made: a run has a handful, and
    /// making one per row cost a string each. The enumerations' cells are written as they
    /// are: their vocabularies (lower-case letters and `_`) never need quotes,
    /// and looking for them was a pass over a third of every row's cells.
    func appendWarehouseRow(_ row: Int, of batch: TransactionBatch, sources: inout [UInt64: [UInt8]]) {
        let transaction = batch.rows[row]
        func text(_ reference: TextRef) {
            guard !reference.isAbsent else { return }
            batch.withBytes(reference) { appendPlainCSVCell($0) }
        }
        let comma = UInt8(ascii: ",")
        text(transaction.transactionID)
        append(comma)
        text(transaction.originalTransactionID)
        append(comma)
        text(transaction.customerID)
        append(comma)
        text(transaction.productID)
        append(comma)
        appendRaw(transaction.productType.rawValue)
        append(comma)
        appendPlainCell(transaction.purchaseDate)
        append(comma)
        appendPlainCell(transaction.expiresDate)
        append(comma)
        appendPlainCell(transaction.revocationDate)
        append(comma)
        appendRaw(transaction.ownership.rawValue)
        append(comma)
        appendRaw(transaction.environment.rawValue)
        append(comma)
        text(transaction.price)
        append(comma)
        text(transaction.currency)
        append(comma)
        if let state = transaction.renewalState { appendRaw(state.rawValue) }
        append(comma)
        appendPlainCell(transaction.gracePeriodExpiresDate)
        append(comma)
        appendPlainCell(transaction.isPromotional)
        append(comma)
        appendPlainCell(transaction.termEnds)
        append(comma)
        let provenance = transaction.provenance
        if let cell = sources[provenance.bits] {
            appendRaw(cell)
        } else {
            let formatted = ByteBuffer(capacity: 64)
            formatted.appendPlainCell(provenance.described)
            let cell = formatted.array
            sources[provenance.bits] = cell
            appendRaw(cell)
        }
        append(UInt8(ascii: "\n"))
    }
}
