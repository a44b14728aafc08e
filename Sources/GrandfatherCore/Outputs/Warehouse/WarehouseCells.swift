import GrandfatherEngine

/// Cells of the warehouse layout (`WarehouseLayout`): plain RFC 4180, instants in UTC with all
/// six fraction digits, booleans as `true`/`false`, an absent value as an empty cell. A
/// normalized run writes one row per accepted transaction, tens of millions of them, so a row
/// is formatted straight from its batch's bytes.
extension ByteBuffer {
    /// Appends text as it is (a header line).
    func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a text cell, or an empty cell for an absent one.
    func appendWarehouseCell(_ text: String?) {
        guard var text else { return }
        text.withUTF8 { appendPlainCSVCell(UnsafeRawBufferPointer($0)) }
    }

    /// Appends an instant as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, or an empty cell.
    func appendWarehouseCell(_ instant: Instant?) {
        guard let instant else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Instant.maximumISO8601Length) { buffer in
            guard let base = buffer.baseAddress, let length = instant.writeISO8601(into: base, allDigits: true) else {
                // Outside years 0000–9999, which no accepted row holds (SPEC §9, "Instants").
                appendWarehouseCell(instant.iso8601)
                return
            }
            append(UnsafeRawBufferPointer(start: base, count: length))
        }
    }

    func appendWarehouseCell(_ value: Bool) {
        appendWarehouseCell(value ? "true" : "false")
    }

    /// Appends the transaction at `row` of `batch` in `WarehouseLayout.transactions`' columns.
    /// `sources` keeps each provenance's text as it is first made: a run has a handful, and
    /// making one per row cost a string each.
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
        appendWarehouseCell(transaction.productType.rawValue)
        append(comma)
        appendWarehouseCell(transaction.purchaseDate)
        append(comma)
        appendWarehouseCell(transaction.expiresDate)
        append(comma)
        appendWarehouseCell(transaction.revocationDate)
        append(comma)
        appendWarehouseCell(transaction.ownership.rawValue)
        append(comma)
        appendWarehouseCell(transaction.environment.rawValue)
        append(comma)
        text(transaction.price)
        append(comma)
        text(transaction.currency)
        append(comma)
        appendWarehouseCell(transaction.renewalState?.rawValue)
        append(comma)
        appendWarehouseCell(transaction.gracePeriodExpiresDate)
        append(comma)
        appendWarehouseCell(transaction.isPromotional)
        append(comma)
        appendWarehouseCell(transaction.termEnds)
        append(comma)
        let provenance = transaction.provenance
        if sources[provenance.bits] == nil { sources[provenance.bits] = Array(provenance.described.utf8) }
        sources[provenance.bits]?.withUnsafeBytes { appendPlainCSVCell($0) }
        append(UInt8(ascii: "\n"))
    }
}
