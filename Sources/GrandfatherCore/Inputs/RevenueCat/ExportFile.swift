import GrandfatherEngine

/// A Scheduled Data Export CSV file read into transactions and rejected rows (FORMATS.md §a):
/// columns matched by header name in any order, unknown columns ignored, every row either
/// read or rejected with its line and reason.
enum ExportFile {
    /// Whether `header` is a Scheduled Data Export's: it names every required column.
    static func recognizes(header: [String]) -> Bool {
        Set(header).isSuperset(of: ExportColumn.required.map(\.name))
    }

    /// What one range of a file gave: each readable row as a typed record in `spill`
    /// (`MappedSpill`, with its delivery key and `updated_at`), in line order, and the rows that
    /// cannot be read. Lines count from 1 at the range's start.
    struct RangeRead: Sendable {
        var spill: RowSpill
        /// The delivery of each row in `spill`, for finding the latest of each transaction.
        var deliveries: [ExportDeliveries.Delivery] = []
        var rejections: [Rejection] = []
        /// What the rows say each product unlocks.
        var rowEntitlements = RowEntitlements()
        /// What the rows say of each product's type.
        var evidence = ProductEvidence()
        /// Physical line breaks in the range: the next range's lines start this much later.
        var lineBreaks = 0
    }

    /// Reads one range of the file `source`, whose header `recognizes(header:)` accepted.
    /// - Parameters:
    ///   - delimiter: the byte between fields, as the header was read with.
    ///   - productTypes: the policy's `products[id].type`.
    ///   - appStore: the platform the `app_store` store stands for.
    static func read(
        _ source: ByteSource, header: [String], delimiter: UInt8 = CSVReader.comma, range: Range<Int>, isFirst: Bool,
        productTypes: [String: ProductType], appStore: Platform = .ios, meter: ProgressMeter? = nil
    ) throws(GrandfatherError) -> RangeRead {
        let reader = CSVReader(header: header, fieldNames: ExportColumn.allCases.map(\.name), delimiter: delimiter)
        let spill = try Spills.make(fieldCount: MappedSpill.fieldCount, for: source.path)
        var sink = Sink(
            path: source.path, productTypes: productTypes, appStore: appStore, writer: RowSpill.Writer(spill))
        let summary = try Records.read(source, with: reader, range: range, isFirst: isFirst, into: &sink, meter: meter)
        if let failure = sink.failure { throw failure }
        try Spills.flush(sink.writer)
        ExportDeliveries.group(&sink.deliveries)
        return RangeRead(
            spill: spill, deliveries: sink.deliveries, rejections: sink.rejections,
            rowEntitlements: sink.rowEntitlements, evidence: sink.evidence, lineBreaks: summary.lineBreaks)
    }

    /// Reads each row the CSV reader delivers into a transaction, and keeps it in the spill or
    /// rejects it.
    private struct Sink: RowSink {
        let path: String
        let productTypes: [String: ProductType]
        let appStore: Platform
        var writer: RowSpill.Writer
        var deliveries: [ExportDeliveries.Delivery] = []
        var rejections: [Rejection] = []
        var rowEntitlements = RowEntitlements()
        var evidence = ProductEvidence()
        /// The first error writing the spill; reading stops short of nothing, and the caller throws it.
        var failure: GrandfatherError?

        mutating func accept(_ row: RawRow) {
            let values = ExportRow(row: row)
            switch ExportTransaction.read(values, productTypes: productTypes) {
            case .success(let transaction):
                let delivery = ExportDeliveries.Delivery(transaction)
                writer.begin(line: row.line, key: delivery.key, version: delivery.version)
                MappedSpill.setValues(of: transaction.mapped(shape: .revenueCatExport, appStore: appStore), in: writer)
                transaction.writeTexts(values, into: &writer)
                do throws(GrandfatherError) {
                    try Spills.end(writer)
                } catch {
                    if failure == nil { failure = error }
                }
                deliveries.append(delivery)
                transaction.note(values, into: &rowEntitlements)
                transaction.note(values, source: .export, into: &evidence)
            case .failure(let problem):
                rejections.append(
                    Rejection(
                        file: path, line: row.line, column: row.column(of: problem.column.rawValue),
                        field: problem.column.name, reason: problem.description))
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            rejections.append(Rejection(file: path, line: line, column: column, field: field, reason: reason))
        }
    }
}
