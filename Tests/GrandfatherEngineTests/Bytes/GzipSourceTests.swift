import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// A gzip input opened as a `ByteSource` reads as what it inflates to, from a copy inflated
/// once and inflated afresh when the file changes. (Whole runs of gzipped inputs:
/// GrandfatherCoreTests' `GzipInputTests`.)
@Suite struct GzipSourceTests {
    @Test("an empty gzip member is an empty file")
    func emptyMember() throws {
        let empty = Gzip.member([])
        let read = try DecodedInputTests.read(empty)
        #expect(read.decoded)
        #expect(read.size == 0)
        #expect(read.stored == empty.count)
        #expect(read.bytes == [])
    }

    @Test("a file rewritten in place, even at once and to the same size, is inflated afresh")
    func rewrittenInPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("customers.csv.gz")
        let first = "customer_id,platform\nann-\(UUID().uuidString),ios\n"
        try Data(Gzip.member(Array(first.utf8))).write(to: url)
        #expect(try ByteSource(path: url.path).readAll() == Array(first.utf8))
        for round in 0..<3 {
            let text = "customer_id,platform\nbob-\(round)-\(UUID().uuidString),ios\n"
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Gzip.member(Array(text.utf8)))
            try handle.close()
            #expect(try ByteSource(path: url.path).readAll() == Array(text.utf8))
            #expect(InflatedFiles.inflations(ofFileAt: url.path) == 1)
        }
    }
}
