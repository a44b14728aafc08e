import Foundation

@testable import GrandfatherCore

/// An export row given as text by column name, as a test writes it.
struct TextExportRow: ExportValues {
    var values: [String: String]

    func read<Result>(_ column: ExportColumn, _ body: (Span<UInt8>) -> Result) -> Result? {
        guard let text = values[column.name], !text.isEmpty else { return nil }
        let bytes = Array(text.utf8)
        return body(bytes.span)
    }
}

/// The canonical fields a row is laid out in, as text.
struct TextFieldWriter: FieldWriter {
    var fields: [TransactionField: String] = [:]
    private var bytes: [TransactionField: [UInt8]] = [:]

    mutating func set(_ field: Int, bytes span: Span<UInt8>) {
        var copy: [UInt8] = []
        for index in 0..<span.count { copy.append(span[index]) }
        store(field, copy)
    }

    mutating func set(_ field: Int, ascii: StaticString) {
        store(field, Array(String(describing: ascii).utf8))
    }

    mutating func set(_ field: Int, instant: Instant) {
        store(field, Array(instant.iso8601.utf8))
    }

    mutating func append(_ field: Int, bytes span: Span<UInt8>) {
        guard let key = TransactionField(rawValue: field) else { return }
        var copy = bytes[key] ?? []
        for index in 0..<span.count { copy.append(span[index]) }
        store(field, copy)
    }

    private mutating func store(_ field: Int, _ value: [UInt8]) {
        guard let key = TransactionField(rawValue: field) else { return }
        bytes[key] = value
        fields[key] = String(decoding: value, as: UTF8.self)
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
            var fields: [TransactionField: String] = [:]
            for field in TransactionField.allCases {
                if let text = row.text(field.rawValue) { fields[field] = text }
            }
            rows.append((row.line, fields))
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
