import GrandfatherEngine

extension InputFormat {
    /// A table of the warehouse layout, as `grandfather normalize` writes it.
    public static let warehouse = InputFormat(rawValue: "warehouse")
}

/// The files of a `normalize` folder read back (`WarehouseLayout`), told by their exact
/// headers: the records are already normalised and customers already assembled, so reading
/// them gives the ledger what the original inputs gave it. `audit --results` reads a folder
/// this way, for the record details the warehouse's result tables do not carry.
enum WarehouseSource: InputSource {
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let first = file.firstNonBlank, first != UInt8(ascii: "["), first != UInt8(ascii: "{"),
            let header = try Records.header(of: file.source),
            let table = WarehouseLayout.inputTables.first(where: { $0.recognizes(header) })
        else { return nil }
        let kind: RecordKind = table.name == WarehouseLayout.transactions.name ? .transactions : .customers
        return RecognizedInput(
            description: file.describe(format: .warehouse, kind: kind), source: Self.self, detail: table.name)
    }

    /// Reads the side tables first (what each customer row needs), then customers, then
    /// transactions.
    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        // What the side tables hold, built here and handed on once.
        var found = (rows: RowEntitlements(), service: ServiceEntitlements())
        var files = [(report: InputReport, rejections: [Rejection])?](repeating: nil, count: inputs.count)
        func table(_ index: Int) -> String { inputs[index].detail as? String ?? "" }
        var factSources: [String: [(CustomerFact, CustomerSource)]] = [:]
        let order = [
            WarehouseLayout.customerFactSources, WarehouseLayout.productEntitlements,
            WarehouseLayout.serviceEntitlements, WarehouseLayout.mergedIDs, WarehouseLayout.customers,
            WarehouseLayout.transactions,
        ].map(\.name)
        for name in order {
            for index in inputs.indices where table(index) == name {
                let path = inputs[index].description.path
                switch name {
                case WarehouseLayout.customers.name:
                    files[index] = try readCustomers(
                        path, factSources: factSources, stream: stream, outcome: &outcome, service: &found.service)
                case WarehouseLayout.transactions.name:
                    files[index] = try readTransactions(path, stream: stream)
                default:
                    let file = try WarehouseTable.read(path, kind: .customers, columns: columns(of: name)) { _, row in
                        note(row, of: name, factSources: &factSources, outcome: &outcome, found: &found)
                    }
                    files[index] = (file.report, file.rejections)
                }
            }
        }
        outcome.files = files.compactMap { $0 }
        outcome.findings.handOn(found.rows)
        outcome.findings.handOn(found.service)
        return outcome
    }

    /// Notes one row of a side table.
    private static func note(
        _ row: [String?], of table: String, factSources: inout [String: [(CustomerFact, CustomerSource)]],
        outcome: inout SourceOutcome, found: inout (rows: RowEntitlements, service: ServiceEntitlements)
    ) -> RowProblem? {
        guard let key = row[0], let value = row[1] else {
            return RowProblem(field: nil, column: nil, reason: "a required value is missing")
        }
        switch table {
        case WarehouseLayout.customerFactSources.name:
            guard let fact = CustomerFact.allCases.first(where: { $0.code == value }),
                let source = CustomerSource.allCases.first(where: { $0.code == row[2] })
            else { return RowProblem(field: "fact", column: nil, reason: "unknown fact or source") }
            factSources[key, default: []].append((fact, source))
        case WarehouseLayout.productEntitlements.name:
            found.rows.note(product: key, [value])
        case WarehouseLayout.serviceEntitlements.name:
            found.service.note(key, [value])
        default:
            guard let how = CustomerIdentities.Merge(rawValue: row[2] ?? "") else {
                return RowProblem(field: "how", column: nil, reason: "unknown merge '\(row[2] ?? "")'")
            }
            outcome.identities.merge(key, onto: value, how: how)
        }
        return nil
    }

    private static func columns(of table: String) -> [String] {
        WarehouseLayout.tables.first { $0.name == table }?.columns.map(\.name) ?? []
    }

    /// Customer rows as `normalize` wrote them: one per customer, assembled. An orphan's row
    /// is skipped, as the ledger makes the same customer again from its transactions.
    private static func readCustomers(
        _ path: String, factSources: [String: [(CustomerFact, CustomerSource)]], stream: RecordStream,
        outcome: inout SourceOutcome, service: inout ServiceEntitlements
    ) throws(GrandfatherError) -> (report: InputReport, rejections: [Rejection]) {
        var sink = stream.sink(file: path, kind: .customers, customerSource: .customersFile)
        let file = try WarehouseTable.read(
            path, kind: .customers, columns: WarehouseLayout.customers.columns.map(\.name)
        ) { line, row in
            switch WarehouseCustomer.read(row, factSources: factSources) {
            case .failure(let problem):
                return problem
            case .success(let read):
                if read.serviceView { service.note(read.customer.id, []) }
                if read.customer.isUnlinked { outcome.unlinkedCustomers.insert(read.customer.id) }
                if !read.customer.isOrphan { sink.accept(customer: read.customer, line: line) }
                return nil
            }
        }
        sink.flush()
        // The sink accounts for the customers it was given; the file, for every row.
        return (file.report, (file.rejections + sink.rejections).sorted { $0.line < $1.line })
    }

    /// Transaction rows, each read into a typed record (`WarehouseTransaction`).
    private static func readTransactions(
        _ path: String, stream: RecordStream
    ) throws(GrandfatherError) -> (report: InputReport, rejections: [Rejection]) {
        let source = try InputFile.open(path)
        guard let header = try Records.header(of: source) else {
            throw .input(file: path, line: 1, message: "no CSV header")
        }
        let reader = CSVReader(header: header, fieldNames: WarehouseTransaction.fieldNames)
        var rows = TypedRows(
            sink: IngestSink(
                file: path, kind: .transactions, customerSource: .customersFile, normalizer: stream.normalizer,
                ledger: stream.ledger, log: stream.recordLog),
            timestamps: stream.normalizer.timestamps)
        _ = try Records.read(
            source, with: reader, range: source.dataStart..<source.size, isFirst: true, into: &rows, meter: stream.meter
        )
        rows.sink.flush()
        let report = InputReport(
            path: path, format: .warehouse, kind: .transactions, sizeBytes: Int64(source.storedSize),
            sha256: try InputFile.sha256(of: source), rowsRead: rows.sink.rowsRead,
            rowsAccepted: rows.sink.rowsRead - rows.sink.rejections.count, rowsRejected: rows.sink.rejections.count,
            exactDuplicates: rows.sink.exactDuplicates, sandboxRows: rows.sink.sandboxRows)
        return (report, rows.sink.rejections)
    }

    /// Reads each row into a typed record and hands it to the sink's typed door.
    private struct TypedRows: RowSink {
        var sink: IngestSink
        let timestamps: TimestampParser
        var sources = WarehouseTransaction.Sources()

        mutating func accept(_ row: RawRow) {
            switch WarehouseTransaction.read(row, timestamps: timestamps, sources: &sources) {
            case .success(let transaction):
                sink.accept(transaction: transaction, texts: WarehouseTransaction.Texts(row: row), line: row.line)
            case .failure(let problem):
                sink.reject(line: row.line, column: problem.column, field: problem.field, reason: problem.reason)
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            sink.reject(line: line, column: column, field: field, reason: reason)
        }
    }
}
