import GrandfatherEngine

extension InputFormat {
    /// App Store Connect's Summary Sales Report (tab-separated, often gzip-compressed).
    public static let appleSales = InputFormat(rawValue: "apple-sales")
    /// Google Play's sales report (`salesreport_YYYYMM`: one row per order).
    public static let googlePlaySales = InputFormat(rawValue: "google-play-sales")
    /// Google Play's earnings report (`earnings_YYYYMM_<profile>-<n>`: one row per charge,
    /// fee, tax and refund of an order).
    public static let googlePlayEarnings = InputFormat(rawValue: "google-play-earnings")
}

/// One kind of sales report: how its header is told, and what each of its rows counts.
protocol SalesRows: Sendable {
    static var format: InputFormat { get }
    static var delimiter: UInt8 { get }
    /// Whether a field may be quoted, as CSV quotes; `false` for text that has no quoting, where
    /// a quote is a character like any other.
    static var isQuoted: Bool { get }
    /// The columns read, by header name; a row's field `i` is `columns[i]`.
    static var columns: [String] { get }
    static func recognizes(header: [String]) -> Bool
    /// Reads one row.
    static func read(_ row: RawRow, against policy: SalesReading) -> SalesRow
}

extension SalesRows {
    static var isQuoted: Bool { true }
}

/// What reading a sales report's rows needs of the policy.
struct SalesReading: Sendable {
    let cutover: Instant
    let sales: SalesPolicy

    init(_ policy: Policy) {
        cutover = policy.cutover.date
        sales = policy.sales
    }
}

/// What one row of a sales report counted, or why it cannot be read.
enum SalesRow {
    /// Copies of an app, in a cell; the days (`YYYY-MM-DD`) of the period they were sold in;
    /// the order's part they are, for a report of orders (each counted once however many
    /// rows and reports give it, at the row that stands for it: `SalesPopulation.Part`).
    case counted(
        SalesPopulation.Key, SalesPopulation.Units, title: String, days: (String, String),
        order: SalesPopulation.OrderRow? = nil)
    /// A row the count cannot use, and what it is ("update", "in-app purchase"…).
    case notCounted(String)
    /// A row that cannot be read: the column at fault, if one, and why.
    case rejected(String?, String)
}

/// The stores' own sales reports: counts of copies sold, by app, country and period, with
/// no customer in them. They give no records: each row is counted into the run's
/// `SalesPopulation` (or accounted as a row the count cannot use), and the reports set the
/// count beside the customers the audit grandfathered.
enum SalesReportSource: InputSource {
    /// Every kind of sales report read, in the order asked.
    static let kinds: [any SalesRows.Type] = [
        AppleSalesRows.self, GooglePlaySalesRows.self, GooglePlayEarningsRows.self,
    ]

    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let line = file.firstLine() else { return nil }
        for kind in kinds where line.contains(kind.delimiter) {
            // Header names are read plainly: none of these reports quotes its header.
            let names = line.split(separator: kind.delimiter, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            if kind.recognizes(header: columnNames(names, of: kind)) {
                return RecognizedInput(
                    description: file.describe(format: kind.format, kind: .sales), source: Self.self, detail: kind)
            }
        }
        return nil
    }

    /// A header's names, each column the kind reads named as the kind names it: Google's
    /// reports write one name in several cases (`Product id` in earnings, `Product ID` in sales).
    private static func columnNames(_ header: [String], of kind: any SalesRows.Type) -> [String] {
        header.map { name in kind.columns.first { $0.lowercased() == name.lowercased() } ?? name }
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        var population = SalesPopulation()
        var digests: [String: String] = [:]
        for input in inputs {
            let path = input.description.path
            guard let kind = input.detail as? any SalesRows.Type else {
                throw .internal("\(path) has no sales report kind")
            }
            let source = try InputFile.open(path)
            let digest = try InputFile.sha256(of: source)
            guard
                let given = try Records.header(of: source, delimiter: kind.delimiter)
            else { throw .input(file: path, line: 1, message: "sales report has no header") }
            let header = columnNames(given, of: kind)
            try CSVHeaderRule.checkEachNamedOnce(header, path: path)
            var sink = Sink(
                path: path, header: header, kind: kind, policy: SalesReading(stream.settings.policy),
                earlier: population)
            sink.population.note(path)
            if kind.isQuoted {
                let reader = CSVReader(header: header, fieldNames: kind.columns, delimiter: kind.delimiter)
                _ = try Records.read(
                    source, with: reader, range: source.dataStart..<source.size, isFirst: true, into: &sink,
                    meter: stream.meter)
            } else {
                let reader = UnquotedLineReader(header: header, fieldNames: kind.columns, delimiter: kind.delimiter)
                try Records.read(source, with: reader, into: &sink, meter: stream.meter)
            }
            let accepted = sink.rowsRead - sink.rejections.count
            // The same report given twice (by one path or two, plain or compressed) is counted once:
            // its rows repeat.
            let content = try InputFile.contentSHA256(of: source)
            let first = digests[content]
            if let first {
                if first != path {
                    var repeated = SalesPopulation()
                    repeated.files[path, default: SalesPopulation.FileCount()].repeats = first
                    population.merge(repeated)
                }
            } else {
                digests[content] = path
                population.merge(sink.population)
            }
            let report = InputReport(
                path: path, format: kind.format, kind: .sales, sizeBytes: Int64(source.storedSize), sha256: digest,
                rowsRead: sink.rowsRead, rowsAccepted: accepted, rowsRejected: sink.rejections.count,
                exactDuplicates: first == nil ? 0 : accepted, sandboxRows: 0)
            outcome.files.append((report, sink.rejections))
        }
        population.settleOrders()
        outcome.findings.handOn(population)
        return outcome
    }

    /// Counts each row the reader delivers, or rejects it.
    private struct Sink: RowSink {
        let path: String
        let header: [String]
        let kind: any SalesRows.Type
        let policy: SalesReading
        /// What the reports read before this one counted.
        let earlier: SalesPopulation
        var population = SalesPopulation()
        var rowsRead = 0
        var rejections: [Rejection] = []

        mutating func accept(_ row: RawRow) {
            rowsRead += 1
            switch kind.read(row, against: policy) {
            case .counted(let key, let units, let title, let days, let order):
                let copies = units.paid + units.free + units.returned
                if earlier.copiesCounted + population.copiesCounted > SalesPopulation.mostCopies - copies {
                    return reject(
                        line: row.line, column: nil, field: nil,
                        reason: "\(copies) copies would carry the copies counted past \(SalesPopulation.mostCopies)")
                }
                if let order {
                    // Weighed against every other row of its part, in any report, once all are
                    // read: which report was read first never decides (`SalesPopulation.Part`).
                    let isNew = !population.hasCounted(order) && !earlier.hasCounted(order)
                    return population.offer(
                        order, units: units, at: key, title: title, file: path, days: days, isNew: isNew)
                }
                population.add(units, at: key, title: title, file: path, days: days)
            case .notCounted(let what): population.skip(path, as: what)
            case .rejected(let column, let reason):
                let position = column.flatMap { header.firstIndex(of: $0) }.map { $0 + 1 }
                rejections.append(
                    Rejection(file: path, line: row.line, column: position, field: column, reason: reason))
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            rowsRead += 1
            rejections.append(Rejection(file: path, line: line, column: column, field: field, reason: reason))
        }
    }
}
