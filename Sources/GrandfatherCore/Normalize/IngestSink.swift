/// Where the ingest stage delivers rows: normalizes each, feeds accepted records to the
/// ledger, and keeps the file's accounting and rejections.
struct IngestSink: RowSink {
    let file: String
    let kind: RecordKind
    let normalizer: RecordNormalizer
    var ledger: Ledger
    var rejections: [Rejection] = []
    var rowsRead = 0
    var rowsAccepted = 0
    var exactDuplicates = 0
    var sandboxRows = 0

    mutating func accept(_ row: RawRow) {
        rowsRead += 1
        switch kind {
        case .customers:
            switch normalizer.customer(row) {
            case .failure(let problem):
                reject(row.line, problem)
            case .success(let customer):
                switch ledger.add(customer) {
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
            switch normalizer.transaction(row) {
            case .failure(let problem):
                reject(row.line, problem)
            case .success(let transaction):
                rowsAccepted += 1
                switch ledger.add(transaction) {
                case .folded: break
                case .exactDuplicate: exactDuplicates += 1
                case .sandbox: sandboxRows += 1
                }
            }
        }
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
