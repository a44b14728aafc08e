import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// The spill gives back what was written: each record's line, key, version and fields, and
/// words (a typed record's scalars) to the bit.
struct RowSpillTests {
    @Test(
        "records come back in order, absent fields absent, words exact",
        arguments: [
            Int64(1_675_374_015_000_000), -1_000, 0, 123, -1, .min, .max,
        ])
    func roundTrip(word: Int64) throws {
        let spill = try RowSpill(fieldCount: 3, for: "test")
        let writer = RowSpill.Writer(spill)
        var words = SpilledWords()
        words.append(word)
        words.append(~word)
        writer.begin(line: 7, key: 42, version: -3)
        writer.set(0, words: words)
        writer.set(2, bytes: Array("x".utf8).span)
        try writer.end()
        writer.begin(line: 9, key: 43, version: 5)
        try writer.end()
        try writer.flush()

        var records: [(line: Int, key: Int, version: Int64, fields: [String?], words: [Int64])] = []
        try spill.read(lineOffset: 100) { row, key, version in
            let read = row.words(0)
            records.append((row.line, key, version, (1..<3).map { row.text($0) }, (0..<read.count).map { read[$0] }))
        }
        #expect(records.map(\.line) == [107, 109])
        #expect(records.map(\.key) == [42, 43])
        #expect(records.map(\.version) == [-3, 5])
        #expect(records[0].fields == [nil, "x"])
        #expect(records[0].words == [word, ~word])
        #expect(records[1].fields == [nil, nil] && records[1].words.isEmpty)
    }

    @Test("a record begun and never ended is dropped, whether another is begun or the writer is flushed")
    func unfinishedRecordsAreDropped() throws {
        let spill = try RowSpill(fieldCount: 2, for: "test")
        let writer = RowSpill.Writer(spill)
        writer.begin(line: 1, key: 1, version: 0)
        writer.set(0, bytes: Array(repeating: UInt8(ascii: "a"), count: 300).span)
        writer.begin(line: 2, key: 2, version: 0)
        writer.set(1, bytes: Array("kept".utf8).span)
        try writer.end()
        writer.begin(line: 3, key: 3, version: 0)
        writer.set(0, bytes: Array("lost".utf8).span)
        try writer.flush()
        var read: [(line: Int, fields: [String?])] = []
        try spill.read { row, _, _ in read.append((row.line, (0..<2).map { row.text($0) })) }
        #expect(read.map(\.line) == [2])
        #expect(read.first?.fields == [nil, "kept"])
        #expect(spill.count == 1)
    }

    /// A field's length takes one byte under 254 and four more from 254 on: the lengths at and
    /// around that edge, a field too long for any row (it must come back whole, to be
    /// rejected), appended fields, empty and absent ones, over records enough to cross the
    /// writer's and the reader's buffers many times.
    @Test("lengths around the one-byte edge, long fields and appends come back exactly")
    func lengthsAndLongFields() throws {
        let fieldCount = 5
        let spill = try RowSpill(fieldCount: fieldCount, for: "test")
        let writer = RowSpill.Writer(spill)
        let lengths = [0, 1, 252, 253, 254, 255, 256, 1_000, RawRow.maximumFieldBytes + 1]
        var expected: [[[UInt8]?]] = []
        var generator = SplitMix(seed: 7)
        let pattern = (0..<RawRow.maximumFieldBytes + 300).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for record in 0..<2_000 {
            writer.begin(line: record + 1, key: record * 3, version: Int64(record) - 10)
            var fields = [[UInt8]?](repeating: nil, count: fieldCount)
            for field in 0..<fieldCount where Int.random(in: 0..<4, using: &generator) > 0 {
                let length = lengths[Int.random(in: 0..<lengths.count, using: &generator)]
                let offset = (record + field) % 256
                let bytes = Array(pattern[offset..<offset + length])
                writer.set(field, bytes: bytes.span)
                var value = bytes
                if field == fieldCount - 1 {
                    // The field set last may grow.
                    let more: [UInt8] = Array("+more".utf8)
                    writer.append(field, bytes: more.span)
                    value += more
                }
                fields[field] = value.isEmpty ? nil : value
            }
            try writer.end()
            expected.append(fields)
        }
        try writer.flush()
        #expect(spill.count == expected.count)

        var read: [[[UInt8]?]] = []
        var lines: [Int] = []
        var keys: [Int] = []
        var versions: [Int64] = []
        try spill.read { row, key, version in
            read.append((0..<fieldCount).map { row.has($0) ? Array(row.bytes($0)) : nil })
            lines.append(row.line)
            keys.append(key)
            versions.append(version)
        }
        #expect(read.count == expected.count)
        let first = zip(read, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "record \(first ?? -1) differs")
        #expect(lines == Array(1...expected.count))
        #expect(keys == (0..<expected.count).map { $0 * 3 })
        #expect(versions == (0..<expected.count).map { Int64($0) - 10 })
    }
}
