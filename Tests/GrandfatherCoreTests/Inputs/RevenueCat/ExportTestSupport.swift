import Foundation

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// An export row given as text by column name, as a test writes it.
struct TextExportRow: ExportValues {
    var values: [String: String]

    func read<Result>(_ column: ExportColumn, _ body: (Span<UInt8>) -> Result) -> Result? {
        guard let text = values[column.name], !text.isEmpty else { return nil }
        let bytes = Array(text.utf8)
        return body(bytes.span)
    }
}

/// Where a record's texts are written, as text by the canonical field each fills.
struct TextFieldWriter: FieldWriter {
    var texts = OwnedTransactionTexts()

    mutating func set(_ field: Int, bytes span: Span<UInt8>) {
        guard let text = TransactionText(rawValue: field - 1) else { return }
        texts[text] = String(decoding: Array(span), as: UTF8.self)
    }

    mutating func append(_ field: Int, bytes span: Span<UInt8>) {
        guard let text = TransactionText(rawValue: field - 1) else { return }
        texts[text] = (texts[text] ?? "") + String(decoding: Array(span), as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    init(_ span: Span<UInt8>) {
        self.init()
        for index in span.indices { append(span[index]) }
    }
}

extension MappedTransaction {
    /// The canonical fields the record stands for, as text: what SPEC §2's fields would say.
    func canonicalFields(_ texts: some TransactionTexts) -> [TransactionField: String] {
        var fields: [TransactionField: String] = [:]
        for text in TransactionText.allCases {
            if let value = texts.read(text, { String(decoding: Array($0), as: UTF8.self) }) {
                fields[text.field] = value
            }
        }
        fields[.productType] = productType.rawValue
        fields[.purchaseDate] = purchaseDate.iso8601
        fields[.expiresDate] = expiresDate?.iso8601
        fields[.revocationDate] = revocationDate?.iso8601
        fields[.ownershipType] = ownership.rawValue
        fields[.environment] = environment.rawValue
        fields[.renewalState] = renewalState?.rawValue
        fields[.gracePeriodExpiresDate] = gracePeriodExpiresDate?.iso8601
        return fields
    }
}

/// A whole export file read the way the source reads each range, each row's canonical
/// fields as text.
struct ExportFileContents {
    var transactions: [(line: Int, transaction: ExportTransaction, fields: [TransactionField: String])] = []
    var rejections: [(line: Int, reason: String)] = []

    init(path: String, header: [String], productTypes: [String: ProductType] = [:]) throws {
        let source = try ByteSource(path: path)
        let read = try ExportFile.read(
            source, header: header, range: source.dataStart..<source.size, isFirst: true, productTypes: productTypes)
        rejections = read.rejections.map { ($0.line, $0.reason) }
        // The rows as the spill gives them back, beside the values each was read into.
        var rows: [(line: Int, fields: [TransactionField: String])] = []
        try read.spill.read { row, _, _ in
            rows.append((row.line, MappedSpill.record(row).canonicalFields(MappedSpill.Texts(row: row))))
        }
        var values = Values(header: header, productTypes: productTypes)
        _ = try CSVReader(header: header, fieldNames: ExportColumn.allCases.map(\.name))
            .read(source, range: source.dataStart..<source.size, isFirst: true, into: &values)
        for ((line, fields), transaction) in zip(rows, values.transactions) {
            transactions.append((line, transaction, fields))
        }
    }

    private struct Values: RowSink {
        let header: [String]
        let productTypes: [String: ProductType]
        var transactions: [ExportTransaction] = []

        mutating func accept(_ row: RawRow) {
            if case .success(let transaction) = ExportTransaction.read(ExportRow(row: row), productTypes: productTypes)
            {
                transactions.append(transaction)
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {}
    }
}
