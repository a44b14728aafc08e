import Foundation
import Testing

@testable import GrandfatherCore

/// The spill gives back what was written: each record's line, key, version and fields, and
/// instants in a form the normalizer reads back to the same microsecond.
struct RowSpillTests {
    @Test(
        "records come back in order, absent fields absent, instants exact",
        arguments: [
            Int64(1_675_374_015_000_000), -1_000, 0, 123, -1, 253_402_300_799_999_999,
        ])
    func roundTrip(microseconds: Int64) throws {
        let spill = try RowSpill(fieldCount: 3, for: "test")
        var writer = RowSpill.Writer(spill)
        let instant = Instant(microseconds: microseconds)
        writer.begin(line: 7, key: 42, version: -3)
        writer.set(0, instant: instant)
        writer.set(2, ascii: "x")
        try writer.end()
        writer.begin(line: 9, key: 43, version: 5)
        try writer.end()
        try writer.flush()

        var records: [(line: Int, key: Int, version: Int64, fields: [String?])] = []
        try spill.read(lineOffset: 100) { row, key, version in
            records.append((row.line, key, version, (0..<3).map { row.text($0) }))
        }
        #expect(records.map(\.line) == [107, 109])
        #expect(records.map(\.key) == [42, 43])
        #expect(records.map(\.version) == [-3, 5])
        #expect(records[0].fields[1] == nil && records[0].fields[2] == "x")
        #expect(records[1].fields == [nil, nil, nil])
        let text = try #require(records[0].fields[0])
        // Whole milliseconds as epoch milliseconds; a finer instant in ISO-8601.
        #expect(text.contains("T") == (microseconds % 1000 != 0))
        #expect(try TimestampParser(defaultZone: nil).parse(text).get() == instant)
    }
}
