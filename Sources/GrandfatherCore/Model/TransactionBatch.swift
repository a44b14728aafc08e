import GrandfatherEngine

/// Normalized transactions with the bytes their text fields point into, and the hashes
/// the ledger files them by (taken by the parser, outside the ledger's lock).
struct TransactionBatch {
    /// What the ledger looks a transaction up by.
    struct Hashes: Sendable {
        var customer: UInt64
        var id: UInt64
        var content: UInt64
    }

    /// The rows' text, back to back. A batch is filled and read by one parser's thread.
    private let text: ByteBuffer
    var rows: [Transaction] = []
    var hashes: [Hashes] = []

    init(capacity: Int = 0) {
        rows.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
        text = ByteBuffer(capacity: capacity * 64)
    }

    /// How many bytes of text the batch holds.
    var byteCount: Int { text.count }

    /// Copies text in and returns where it lies.
    mutating func store(_ bytes: UnsafeRawBufferPointer) -> TextRef {
        let start = text.count
        text.append(bytes)
        return TextRef(start: Int32(start), count: Int32(bytes.count))
    }

    /// Copies a span's bytes in and returns where they lie.
    mutating func store(_ bytes: Span<UInt8>) -> TextRef {
        bytes.withUnsafeBytes { store($0) }
    }

    /// Upper-cases the ASCII letters of stored text in place.
    mutating func uppercase(_ stored: TextRef) -> TextRef {
        text.uppercaseASCII(Int(stored.start)..<Int(stored.start + stored.count))
        return stored
    }

    /// Drops bytes stored after `count` (those of a row that was then rejected).
    mutating func truncate(to count: Int) {
        text.truncate(to: count)
    }

    /// Stores a string's UTF-8.
    mutating func store(_ text: String) -> TextRef {
        var text = text
        return text.withUTF8 { store(UnsafeRawBufferPointer($0)) }
    }

    /// Forgets every row and byte, keeping capacity.
    mutating func removeAll() {
        text.truncate(to: 0)
        rows.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
    }

    /// Appends a transaction with its hashes.
    mutating func append(_ transaction: Transaction) {
        rows.append(transaction)
        let customer = withBytes(transaction.customerID) { CustomerIndex.hash($0) }
        let id = TransactionFingerprints.id(of: transaction, in: self)
        hashes.append(
            Hashes(
                customer: customer, id: id,
                content: TransactionFingerprints.content(of: transaction, in: self, id: id, customer: customer)))
    }

    /// Calls `body` with the bytes of `text` (empty when absent).
    func withBytes<Result>(_ text: TextRef, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard !text.isAbsent else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(rebasing: self.text.bytes[Int(text.start)..<Int(text.start + text.count)]))
    }

    /// Calls `body` with every byte of the batch.
    func withAllBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(text.bytes)
    }

    /// The text as a string; `nil` when absent.
    func string(_ text: TextRef) -> String? {
        guard !text.isAbsent else { return nil }
        return withBytes(text) { String(decoding: $0, as: UTF8.self) }
    }
}
