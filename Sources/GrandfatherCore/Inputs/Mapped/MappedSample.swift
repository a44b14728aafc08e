import Foundation
import GrandfatherEngine

/// The start of a team's export, as `map --suggest` reads it: its format, its columns (a CSV
/// header, or the keys of its JSON objects in first-seen order) and the values of its first
/// rows, as text.
struct MappedSample: Sendable, Equatable {
    var path: String
    var format: InputFormat
    var columns: [String]
    /// Each row's values, one per column (`nil`: empty, absent or JSON null).
    var rows: [[String?]]

    /// Rows read to suggest from: enough to see each spelling a column uses.
    static let rowLimit = 5_000
    /// Bytes of a CSV or JSON Lines file read for them.
    static let byteLimit = 8 << 20
    /// A JSON array is parsed whole: larger ones are refused.
    static let arrayLimit = 64 << 20

    static func read(_ path: String) throws(GrandfatherError) -> MappedSample {
        let source = try InputFile.open(path)
        var prefix = [UInt8](repeating: 0, count: min(byteLimit, source.size - source.dataStart))
        let count = try InputFile.read(source, at: source.dataStart, count: prefix.count, into: &prefix)
        prefix.removeSubrange(count...)
        switch prefix.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
        case UInt8(ascii: "["):
            guard source.size <= arrayLimit else {
                throw .input(
                    file: path, line: nil,
                    message: "a JSON array larger than 64 MiB: give --suggest its first rows, or JSON Lines")
            }
            let whole = try InputFile.readAll(source)
            return try objects(path, .jsonArray, parsed(path, whole)?.elements?.map(\.value) ?? [])
        case UInt8(ascii: "{"):
            var values: [JSONValue] = []
            // Whole lines only: the last may be cut by the prefix's end.
            let lines = prefix.split(separator: 0x0A).dropLast(count < source.size - source.dataStart ? 1 : 0)
            for line in lines.prefix(rowLimit) where line.contains(where: { $0 > 0x20 }) {
                if let value = try parsed(path, Array(line)) { values.append(value) }
            }
            return try objects(path, .jsonLines, values)
        default:
            guard let header = try Records.header(of: source) else {
                throw .input(file: path, line: 1, message: "no CSV header to suggest a mapping from")
            }
            var sink = Rows(width: header.count)
            _ = try Records.read(
                source, with: CSVReader(header: header, fieldNames: header),
                range: source.dataStart..<(source.dataStart + count), isFirst: true, into: &sink, meter: nil)
            return MappedSample(path: path, format: .csv, columns: header, rows: sink.rows)
        }
    }

    private static func parsed(_ path: String, _ bytes: [UInt8]) throws(GrandfatherError) -> JSONValue? {
        switch JSONParser.parseDocument(bytes, trailing: "unexpected text after the JSON value") {
        case .success(let value): return value
        case .failure(let error):
            throw .input(file: path, line: error.line, message: "malformed JSON: \(error.message)")
        }
    }

    /// The objects' keys in first-seen order, and their values as text.
    private static func objects(_ path: String, _ format: InputFormat, _ values: [JSONValue]) throws(GrandfatherError)
        -> MappedSample
    {
        var columns: [String] = []
        var places: [String: Int] = [:]
        let objects = values.prefix(rowLimit).compactMap(\.members)
        for members in objects {
            for member in members where places[member.key] == nil {
                places[member.key] = columns.count
                columns.append(member.key)
            }
        }
        guard !columns.isEmpty else { throw .input(file: path, line: nil, message: "no JSON object to suggest from") }
        let rows = objects.map { members -> [String?] in
            var row = [String?](repeating: nil, count: columns.count)
            for member in members {
                guard let place = places[member.key] else { continue }
                switch member.value {
                case .string(let text): row[place] = text.isEmpty ? nil : text
                case .number(let text): row[place] = text
                case .bool(let flag): row[place] = flag ? "true" : "false"
                case .null, .object, .array: row[place] = nil
                }
            }
            return row
        }
        return MappedSample(path: path, format: format, columns: columns, rows: rows)
    }

    /// Keeps the first rows' texts; a row that cannot be read (the last, cut short) is skipped.
    private struct Rows: RowSink {
        let width: Int
        var rows: [[String?]] = []

        mutating func accept(_ row: RawRow) {
            guard rows.count < MappedSample.rowLimit else { return }
            rows.append((0..<width).map { row.text($0) })
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {}
    }
}
