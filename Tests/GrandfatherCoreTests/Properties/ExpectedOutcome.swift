/// What SPEC §6 and §8.7 say a run over generated files must account for, worked out from
/// the rows themselves (which are invalid, which repeat which), independently of the tool.
struct ExpectedOutcome {
    struct File {
        var rowsRead: Int
        /// Lines of the rows to be rejected, in line order.
        var rejectedLines: [Int]
        /// Accepted customer rows repeating an earlier row exactly.
        var customerDuplicates: Int
        /// Accepted sandbox rows.
        var sandboxRows: Int
    }

    var files: [File] = []
    /// Every customer the audit must hold: accepted customer rows and orphans.
    var customerIDs: Set<String> = []
    var sandboxCustomers: Set<String> = []
    var orphans: Set<String> = []
    /// Valid production transaction rows beyond the first of each content, over all files.
    var transactionDuplicates = 0

    init(_ dataset: GeneratedDataset, files: [DatasetFile]) {
        var accepted: [Int: [Int]] = [:]
        var transactionContents: [Int: Set<[Int]>] = [:]
        var productionTransactions = 0
        var named: Set<String> = []
        for file in files {
            var expected = File(rowsRead: file.rows.count, rejectedLines: [], customerDuplicates: 0, sandboxRows: 0)
            for (row, line) in zip(file.rows, file.lines) {
                switch file.kind {
                case .customers:
                    let customer = dataset.customers[row]
                    guard customer.defect == .none else {
                        expected.rejectedLines.append(line)
                        continue
                    }
                    if let first = accepted[customer.id] {
                        guard first == customer.content else {
                            expected.rejectedLines.append(line)
                            continue
                        }
                        expected.customerDuplicates += 1
                    } else {
                        accepted[customer.id] = customer.content
                        if customer.isSandbox { sandboxCustomers.insert(Pools.customerIDs[customer.id]) }
                    }
                    if customer.isSandbox { expected.sandboxRows += 1 }
                case .transactions:
                    let transaction = dataset.transactions[row]
                    guard transaction.defect == .none else {
                        expected.rejectedLines.append(line)
                        continue
                    }
                    if transaction.isSandbox {
                        expected.sandboxRows += 1
                        continue
                    }
                    productionTransactions += 1
                    transactionContents[transaction.id, default: []].insert(transaction.content)
                    named.insert(Pools.transactionCustomerIDs[transaction.customer])
                case .sales, .evidence:
                    preconditionFailure("the property datasets hold no sales reports")
                }
            }
            expected.rejectedLines.sort()
            self.files.append(expected)
        }
        let withRecord = Set(accepted.keys.map { Pools.customerIDs[$0] })
        orphans = named.subtracting(withRecord)
        customerIDs = withRecord.union(orphans)
        transactionDuplicates = productionTransactions - transactionContents.values.reduce(0) { $0 + $1.count }
    }
}
