import GrandfatherEngine

/// Where a reader delivers rows: normalizes each, feeds accepted records to the ledger,
/// and keeps the accounting and rejections of the rows it saw.
///
/// Rows are normalized outside the locks and added in batches, so parsers of several ranges
/// contend for the ledger rarely.
struct IngestSink: RowSink {
    static let batchSize = 4096

    let file: String
    let kind: RecordKind
    /// The source customer rows come from, which decides which of its facts win (SPEC §9).
    let customerSource: CustomerSource
    let normalizer: RecordNormalizer
    let ledger: ShardedLedger
    /// Where `grandfather normalize` keeps every accepted transaction; `nil` for an audit.
    let log: RecordLog?
    private var segment: RecordLog.Segment?
    /// Each provenance's `fact_sources` cell for the log's rows, made once.
    private var sources: [UInt64: [UInt8]] = [:]
    /// The line of the first transaction row, which orders this sink's rows in the log.
    private var firstLine: Int?
    /// Where this sink's rows lie in its file, where lines are counted per range and not yet
    /// known in full (the byte offset of the range): orders its rows in the log instead.
    var logOrder: Int?
    private(set) var rejections: [Rejection] = []
    private(set) var rowsRead = 0
    private(set) var rowsAccepted = 0
    /// Exact duplicates among customer rows; those among transactions are counted once every
    /// file is read (`ShardedLedger.settle`).
    private(set) var exactDuplicates = 0
    private(set) var sandboxRows = 0
    private var batch = TransactionBatch()
    private var scratch: [[Int32]] = []
    private var fingerprints: ShardedLedger.PendingFingerprints
    /// Where full batches are folded while this sink's reader goes on (`foldsInBackground`);
    /// it then holds the fingerprints. `nil`: folded here, by the reader's thread.
    private let background: BackgroundFold?
    /// Customer rows normalized but not yet added, with their lines: added a batch at a time,
    /// so that each shard's lock is taken once per batch rather than once per row.
    private var customers: [Customer] = []
    private var customerLines: [Int] = []
    /// The id each batched customer row gave, where identities merged it onto another's.
    private var mergedFrom: [String?] = []
    /// The order number each customer row claims, if any.
    private var claimedOrders: [String?] = []
    /// The orders the accepted customer rows claim.
    private(set) var claims: [ClaimedOrderRules.Claim] = []
    static let customerBatchSize = 1024

    init(
        file: String, kind: RecordKind, customerSource: CustomerSource, normalizer: RecordNormalizer,
        ledger: ShardedLedger, log: RecordLog? = nil, foldsInBackground: Bool = false
    ) {
        self.file = file
        self.kind = kind
        self.customerSource = customerSource
        self.normalizer = normalizer
        self.ledger = ledger
        self.log = log
        fingerprints = ledger.pendingFingerprints(for: file)
        background = foldsInBackground ? BackgroundFold(ledger: ledger, pending: fingerprints) : nil
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
                customers.append(customer.read(from: customerSource))
                customerLines.append(row.line)
                // The normalizer has passed it through the one rule. An order number is copied
                // by hand from a payments page, as in a claims file: the ASCII blanks around it
                // are no part of it, and a cell of blanks alone claims nothing.
                claimedOrders.append(
                    row.text(CustomerField.orderNumber.rawValue).map(ClaimedOrderSource.withoutBlanks).flatMap {
                        $0.isEmpty ? nil : $0
                    })
                mergedFrom.append(
                    normalizer.identities.isEmpty
                        ? nil : row.text(CustomerField.customerID.rawValue).flatMap { $0 == customer.id ? nil : $0 })
                if customers.count >= Self.customerBatchSize { flushCustomers() }
            }
        case .transactions:
            account(transactionAt: row.line, normalizer.transaction(row, into: &batch))
        case .sales, .evidence:
            // A sales report's rows and claims are weighed by their sources, never normalised into records.
            rejections.append(
                Rejection(
                    file: file, line: row.line, reason: "a \(kind.rawValue) row is not a customer or transaction"))
        }
    }

    /// Why `accept(customer:line:)` rejects a customer a source read itself: the field at
    /// fault and the reason; `nil` when it takes it.
    static func problem(of customer: Customer) -> (field: String, reason: String)? {
        let texts: [(CustomerField, String?, TextBytes.Kind)] = [
            (.customerID, customer.id, .identifier), (.originalAppVersion, customer.originalAppVersion, .value),
            (.storefront, customer.storefront, .value),
        ]
        for case (let field, let text?, let kind) in texts {
            if let problem = TextBytes.reason(text, named: field.name, as: kind) { return (field.name, problem) }
        }
        return nil
    }

    /// A customer a source read itself (a RevenueCat customer list's row, an App Store app
    /// transaction), accounted for as a row at `line`. Its provenance is the source's. Its
    /// texts are checked as a row's are, by the one rule (`TextBytes`: a list's id cut at the
    /// limit would collide with another, a response's would reach every report whole).
    mutating func accept(customer: Customer, line: Int) {
        if let (field, problem) = Self.problem(of: customer) {
            return reject(line: line, column: nil, field: field, reason: problem)
        }
        rowsRead += 1
        let given = customer.id
        var customer = customer
        customer.id = normalizer.customerID(given)
        mergedFrom.append(customer.id == given ? nil : given)
        customers.append(customer)
        customerLines.append(line)
        claimedOrders.append(nil)
        if customers.count >= Self.customerBatchSize { flushCustomers() }
    }

    /// A transaction a source read itself (`MappedTransaction`: RevenueCat's rows, a
    /// `normalize` folder's), accounted for as a row at `line`: its values typed already, its
    /// texts checked as a row's are.
    mutating func accept(transaction: MappedTransaction, texts: some TransactionTexts, line: Int) {
        rowsRead += 1
        account(transactionAt: line, normalizer.transaction(transaction, texts: texts, into: &batch))
    }

    /// Accounts for a transaction row at `line` the normalizer batched, or rejected for `problem`.
    private mutating func account(transactionAt line: Int, _ problem: RowProblem?) {
        if firstLine == nil { firstLine = line }
        if let problem {
            reject(line, problem)
        } else {
            rowsAccepted += 1
            if batch.rows.count >= Self.batchSize { flushTransactions() }
        }
    }

    /// Folds the transactions and customers still batched and writes the fingerprints
    /// gathered; call once the reader is done.
    mutating func flush() {
        flushCustomers()
        flushTransactions()
        if let background {
            sandboxRows += background.finish()
        } else {
            ledger.write(&fingerprints)
        }
    }

    private mutating func flushTransactions() {
        guard !batch.rows.isEmpty else { return }
        if let log {
            if segment == nil { segment = log.segment(file: file, order: logOrder ?? firstLine ?? 0) }
            segment?.append(rows: batch.rows.count) { buffer in
                for row in batch.rows.indices { buffer.appendWarehouseRow(row, of: batch, sources: &sources) }
            }
        }
        if let background {
            background.fold(batch)
            batch = TransactionBatch(capacity: Self.batchSize)
            return
        }
        sandboxRows += ledger.add(batch, scratch: &scratch, pending: &fingerprints)
        batch.removeAll()
    }

    /// Adds the batched customer rows and accounts for each, in row order.
    private mutating func flushCustomers() {
        guard !customers.isEmpty else { return }
        for (row, outcome) in ledger.add(customers).enumerated() {
            let customer = customers[row]
            switch outcome {
            case .accepted, .exactDuplicate:
                acceptCustomer(customer, duplicate: outcome == .exactDuplicate)
                if let order = claimedOrders[row] { claims.append(.init(customerID: customer.id, order: order)) }
            case .repeatedWithOtherContent:
                // A row whose id was merged onto another says so: its own id is not repeated.
                let merged = mergedFrom[row].map { " (merged from '\(Excerpt.of($0))' by RevenueCat's webhook events)" }
                rejections.append(
                    Rejection(
                        file: file, line: customerLines[row], column: nil, field: "customer_id",
                        reason: "duplicate customer_id '\(Excerpt.of(customer.id))'" + (merged ?? "")))
            }
        }
        customers.removeAll(keepingCapacity: true)
        customerLines.removeAll(keepingCapacity: true)
        mergedFrom.removeAll(keepingCapacity: true)
        claimedOrders.removeAll(keepingCapacity: true)
    }

    private mutating func acceptCustomer(_ customer: Customer, duplicate: Bool) {
        rowsAccepted += 1
        if duplicate { exactDuplicates += 1 }
        if customer.environment == .sandbox { sandboxRows += 1 }
    }

    mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
        rowsRead += 1
        // Rejections stay in line order: the batched rows before this one are decided first.
        flushCustomers()
        rejections.append(Rejection(file: file, line: line, column: column, field: field, reason: reason))
    }

    private mutating func reject(_ line: Int, _ problem: RowProblem) {
        flushCustomers()
        rejections.append(
            Rejection(file: file, line: line, column: problem.column, field: problem.field, reason: problem.reason))
    }
}
