import Foundation
import Testing

@testable import GrandfatherEngine

/// The log's parts hold every row once, in input order then first line, each part headed by
/// the header: whether the segments' files were written past the page cache, in whole blocks
/// with the rest held back, or through it.
struct RecordLogTests {
    @Test(arguments: [true, false])
    func partsHoldEveryRowOnceInOrder(direct: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("record-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = "id,text\n"
        let log = RecordLog(inputs: ["a", "b"], header: header, folder: folder.path, direct: direct)
        // Given out of order: b's segment first, then a's two ranges, the later one first.
        // Rows of 37 bytes, so no batch ends on a block; a's second range outgrows memory.
        func row(_ file: String, _ index: Int) -> String {
            "\(file)-\(String(format: "%09d", index)),\(String(repeating: "y", count: 25))\n"
        }
        let plan: [(file: String, order: Int, rows: Range<Int>)] = [
            ("b", 0, 0..<10), ("a", 500, 500..<200_500), ("a", 0, 0..<500),
        ]
        for (file, order, rows) in plan {
            let segment = log.segment(file: file, order: order)
            var next = rows.lowerBound
            while next < rows.upperBound {
                let batch = next..<min(next + 997, rows.upperBound)
                segment.append(rows: batch.count) { buffer in
                    for index in batch { Array(row(file, index).utf8).withUnsafeBytes { buffer.append($0) } }
                }
                next = batch.upperBound
            }
        }
        #expect(log.rows == 200_510)
        let parts = try log.writeParts { "t-\($0).csv" }
        // a's first range (held in memory), a's second (its own file), b's (held).
        #expect(parts == ["t-1.csv", "t-2.csv", "t-3.csv"])
        var rows: [Substring] = []
        for part in parts {
            let text = try String(contentsOf: folder.appendingPathComponent(part), encoding: .utf8)
            #expect(text.hasPrefix(header), "\(part)")
            rows += text.dropFirst(header.count).split(separator: "\n")
        }
        let expected = (0..<200_500).map { row("a", $0).dropLast() } + (0..<10).map { row("b", $0).dropLast() }
        #expect(rows.count == expected.count)
        #expect(rows.elementsEqual(expected))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == parts, "no segment file is left beside the parts")
    }
}
