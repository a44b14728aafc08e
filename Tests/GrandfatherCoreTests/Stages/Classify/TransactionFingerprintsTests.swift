import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore

/// The fingerprints, written in partitioned chunks and decided at the end, say what a table
/// that saw every row in file order would say: each file's exact duplicates, and the owners
/// of every conflicting version.
struct TransactionFingerprintsTests {
    private struct Row {
        var file: Int
        var id: UInt64
        var content: UInt64
        var owner: Int32
    }

    /// Rows of three files with ids drawn from a small pool (so that many repeat, some with
    /// other content), written interleaved and in more chunks than one buffer holds.
    private static func rows(seed: UInt64) -> [Row] {
        var generator = SplitMix(seed: seed)
        return (0..<150_000).map { _ in
            let id = generator.next() % 40_000
            // Most repeats are exact (content follows the id); one in twenty has other content.
            let content = generator.next() % 20 == 0 ? generator.next() : id &* 0x9E37_79B9_7F4A_7C15
            // The high bits of an id's hash choose its partition: spread them, and keep id 0.
            let hash = id == 7 ? 0 : id &* 0xD6E8_FEB8_6659_FD93
            return Row(file: Int(generator.next() % 3), id: hash, content: content, owner: Int32(id % 1000))
        }
    }

    @Test("exact duplicates per file and conflicts match a table read in file order", arguments: [1, 2, 3] as [UInt64])
    func matchesAnInMemoryTable(seed: UInt64) throws {
        let rows = Self.rows(seed: seed)
        let paths = ["a.csv", "b.csv", "c.csv"]
        let fingerprints = TransactionFingerprints()
        // Ranked a, b, c; written c first, then the rest interleaved.
        for path in paths { _ = fingerprints.tag(for: path) }
        var pending = paths.map { fingerprints.pending(for: $0) }
        for row in rows where row.file == 2 {
            if pending[2].append(id: row.id, content: row.content, owner: row.owner) {
                fingerprints.write(&pending[2])
            }
        }
        for row in rows where row.file != 2 {
            if pending[row.file].append(id: row.id, content: row.content, owner: row.owner) {
                fingerprints.write(&pending[row.file])
            }
        }
        for file in pending.indices { fingerprints.write(&pending[file]) }
        let settled = try fingerprints.settle()

        // The model: rows in file order, each file's rows in the order written.
        var seen: [UInt64: (owner: Int32, contents: [UInt32])] = [:]
        var duplicates = [0, 0, 0]
        var conflicts: [[Int32]] = []
        for file in 0..<3 {
            for row in rows where row.file == file {
                let key = row.id == 0 ? 1 : row.id
                let content = UInt32(truncatingIfNeeded: row.content >> 32)
                guard let first = seen[key] else {
                    seen[key] = (row.owner, [content])
                    continue
                }
                if first.contents.contains(content) {
                    duplicates[file] += 1
                } else {
                    seen[key]?.contents.append(content)
                    conflicts.append([row.owner, first.owner])
                }
            }
        }
        #expect(duplicates.allSatisfy { $0 > 1000 } && conflicts.count > 100, "the rows exercise both")
        for (file, path) in paths.enumerated() {
            #expect(settled.exactDuplicates[path, default: 0] == duplicates[file], "\(path)")
        }
        let pairs = stride(from: 0, to: settled.conflicts.count, by: 2).map {
            [settled.conflicts[$0], settled.conflicts[$0 + 1]]
        }
        let ordered: ([Int32], [Int32]) -> Bool = { $0.lexicographicallyPrecedes($1) }
        #expect(pairs.sorted(by: ordered) == conflicts.sorted(by: ordered))
    }

    @Test("nothing written settles to nothing")
    func empty() throws {
        let settled = try TransactionFingerprints().settle()
        #expect(settled.exactDuplicates.isEmpty && settled.conflicts.isEmpty)
    }

    @Test("a file is ranked when first named, and keeps its rank")
    func ranks() {
        let fingerprints = TransactionFingerprints()
        #expect(fingerprints.tag(for: "b") == 0)
        #expect(fingerprints.tag(for: "a") == 1)
        #expect(fingerprints.tag(for: "b") == 0)
    }
}
