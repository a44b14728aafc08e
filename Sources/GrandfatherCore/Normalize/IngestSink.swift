import Foundation

/// The ledger shared by the parsers of one run: each folds its records in under the lock.
final class SharedLedger: @unchecked Sendable {
    private let lock = NSLock()
    /// Touched only with `lock` held.
    private var ledger: Ledger

    init(_ ledger: consuming Ledger) {
        self.ledger = ledger
    }

    /// Runs `body` on the ledger under the lock.
    func withLock<Result>(_ body: (inout Ledger) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&ledger)
    }

    /// Ends the fold once every reader is done.
    func finish() -> (customers: [Customer], activities: [CustomerActivity]) {
        withLock { $0.finish() }
    }
}

/// Where a reader delivers rows: normalizes each, feeds accepted records to the ledger,
/// and keeps the accounting and rejections of the rows it saw.
///
/// Transactions are normalized outside the lock and folded in batches, so parsers of
/// several ranges contend for the ledger rarely.
struct IngestSink: RowSink {
    static let batchSize = 4096

    let file: String
    let kind: RecordKind
    let normalizer: RecordNormalizer
    let ledger: SharedLedger
    private(set) var rejections: [Rejection] = []
    private(set) var rowsRead = 0
    private(set) var rowsAccepted = 0
    private(set) var exactDuplicates = 0
    private(set) var sandboxRows = 0
    private var batch = TransactionBatch()

    init(file: String, kind: RecordKind, normalizer: RecordNormalizer, ledger: SharedLedger) {
        self.file = file
        self.kind = kind
        self.normalizer = normalizer
        self.ledger = ledger
        if kind == .transactions { batch = TransactionBatch(capacity: Self.batchSize) }
    }

    mutating func accept(_ row: RawRow) {
        rowsRead += 1
        switch kind {
        case .customers:
            switch normalizer.customer(row) {
            case .failure(let problem):
                reject(row.line, problem)
            case .success(let customer):
                switch ledger.withLock({ $0.add(customer) }) {
                case .accepted:
                    acceptCustomer(customer, duplicate: false)
                case .exactDuplicate:
                    acceptCustomer(customer, duplicate: true)
                case .repeatedWithOtherContent:
                    reject(
                        row.line,
                        RowProblem(field: "customer_id", column: nil, reason: "duplicate customer_id '\(customer.id)'"))
                }
            }
        case .transactions:
            if let problem = normalizer.transaction(row, into: &batch) {
                reject(row.line, problem)
            } else {
                rowsAccepted += 1
                if batch.rows.count >= Self.batchSize { flush() }
            }
        }
    }

    /// Folds the transactions still batched; call once the reader is done.
    mutating func flush() {
        guard !batch.rows.isEmpty else { return }
        var duplicates = 0
        var sandbox = 0
        ledger.withLock { ledger in
            for row in batch.rows.indices {
                switch ledger.add(row, of: batch) {
                case .folded: break
                case .exactDuplicate: duplicates += 1
                case .sandbox: sandbox += 1
                }
            }
        }
        exactDuplicates += duplicates
        sandboxRows += sandbox
        batch.removeAll()
    }

    private mutating func acceptCustomer(_ customer: Customer, duplicate: Bool) {
        rowsAccepted += 1
        if duplicate { exactDuplicates += 1 }
        if customer.environment == .sandbox { sandboxRows += 1 }
    }

    mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
        rowsRead += 1
        rejections.append(Rejection(file: file, line: line, column: column, field: field, reason: reason))
    }

    private mutating func reject(_ line: Int, _ problem: RowProblem) {
        rejections.append(
            Rejection(file: file, line: line, column: problem.column, field: problem.field, reason: problem.reason))
    }
}
