import CLibCSV
import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// `CSVReader` points libcsv's entry buffer into its own (`CSVCollector.lend`), so fields
/// arrive where they are kept. Every field it delivers must still be exactly what libcsv,
/// left to its own buffer, reports: on a file of many read chunks, with quoted commas, line
/// breaks and doubled quotes, CRLF line ends, empty fields, and fields longer than a chunk
/// (kept to `RawRow.maximumFieldBytes + 1` bytes, as before).
@Suite struct CSVBufferLendingTests {
    /// Collects every row's fields in header order; rejects nothing it is not told to.
    private struct RecordingSink: RowSink {
        let fieldCount: Int
        var rows: [[[UInt8]]] = []
        var rejections = 0

        mutating func accept(_ row: RawRow) {
            rows.append((0..<fieldCount).map { Array(row.bytes($0)) })
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            rejections += 1
        }
    }

    private static func field(_ generator: inout SplitMix) -> String {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<10: return ""
        case 10..<20: return "\"a, \"\"quoted\"\"\nvalue\r\nover lines\""
        case 20: return String(repeating: "x", count: Int.random(in: 70_000...600_000, using: &generator))
        case 21:
            let lines = Int.random(in: 30_000...120_000, using: &generator)
            return "\"" + String(repeating: "q,\n", count: lines) + "\""
        default:
            let alphabet = Array("abc019-_.:")
            let length = Int.random(in: 1...24, using: &generator)
            return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        }
    }

    @Test func everyFieldIsWhatLibCSVReportsInItsOwnBuffer() throws {
        let names = TransactionFields.names
        var generator = SplitMix(seed: 20_261_122)
        var text = names.joined(separator: ",") + "\n"
        for row in 0..<4_000 {
            text += (0..<names.count).map { _ in Self.field(&generator) }.joined(separator: ",")
            text += row % 5 == 0 ? "\r\n" : "\n"
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 8 * ByteSource.chunkSize)

        // What libcsv reports from its own buffer, chunk by chunk, values never trimmed.
        let chunks = stride(from: 0, to: bytes.count, by: ByteSource.chunkSize).map {
            Array(bytes[$0..<min($0 + ByteSource.chunkSize, bytes.count)])
        }
        var expected: [[[UInt8]]] = []
        var record: [[UInt8]] = []
        for (_, event) in LibCSVEvents.parse(chunks, beforeChunk: { _, _ in false }).events {
            switch event {
            case .field(let field): record.append(Array(field.prefix(RawRow.maximumFieldBytes + 1)))
            case .record:
                if !record.isEmpty { expected.append(record) }
                record = []
            }
        }
        if !record.isEmpty { expected.append(record) }
        expected.removeFirst()  // the header

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lending-\(UUID()).csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try ByteSource(path: path)
        var sink = RecordingSink(fieldCount: names.count)
        _ = try CSVReader(header: names, fieldNames: TransactionFields.names)
            .read(source, range: source.dataStart..<source.size, isFirst: true, into: &sink)

        #expect(sink.rejections == 0)
        #expect(sink.rows.count == expected.count)
        // The first difference only, by place and length: whole rows would print megabytes.
        let mismatch = zip(sink.rows, expected).enumerated().lazy.compactMap { index, pair -> String? in
            guard let field = (0..<names.count).first(where: { pair.0[$0] != pair.1[$0] }) else { return nil }
            return "row \(index + 1), \(names[field]): \(pair.0[field].count) bytes, libcsv \(pair.1[field].count)"
        }.first
        #expect(mismatch == nil)
        // The long fields really were there, and kept to the limit.
        #expect(sink.rows.contains { $0.contains { $0.count == RawRow.maximumFieldBytes + 1 } })
    }
}
