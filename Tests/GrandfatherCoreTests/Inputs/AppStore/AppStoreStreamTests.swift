import Foundation
import Testing

@testable import GrandfatherCore

/// An App Store file streamed a piece at a time (`AppStoreFileReader.read(at:…)`, what a run
/// does) gives the rows, lines and notification types the whole file gives.
struct AppStoreStreamTests {
    private typealias Files = AppStoreReaderTests.AppStoreFiles
    private typealias StubChecker = AppStoreReaderTests.StubChecker

    private static func expectStreamedIsWhole(
        _ bytes: [UInt8], shape: AppStoreShape, named name: String, pieces: [Int]
    ) throws {
        let options = AppStoreReadOptions(trustDecoded: true)
        let whole = AppStoreFileReader.read(bytes, shape: shape, options: options, checker: StubChecker.unchecked)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("appstore-\(UUID())").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for piece in pieces {
            let streamed = try AppStoreFileReader.read(
                at: path, shape: shape, options: options, checker: StubChecker.unchecked, piece: piece
            ).contents
            #expect(streamed == whole, "\(name) in pieces of \(piece)")
        }
    }

    @Test("every App Store fixture streamed in pieces reads as the whole file")
    func fixturesStreamed() throws {
        var read = 0
        for path in try Files.allPaths() {
            let bytes = try Files.bytes(path)
            guard case .appStore(let shape) = AppStoreRecognizer.recognize(bytes) else { continue }
            try Self.expectStreamedIsWhole(bytes, shape: shape, named: path, pieces: [1, 7, 64, 1 << 20])
            read += 1
        }
        #expect(read == AppStoreReaderTests.recordFiles.count)
    }

    @Test("JWS lines with a byte-order mark, blank and CRLF lines, and no last line break, past a batch")
    func jwsLinesStreamed() throws {
        let signed = Files.jws(#"{"transactionId":"1","originalTransactionId":"1","productId":"p","bundleId":"b"}"#)
        var lines = ["\u{FEFF}" + signed, "", "  \r", signed + "\r", "not a jws"]
        for index in 0..<(AppStoreFileReader.batch + 50) {
            lines.append(index % 997 == 0 ? "" : signed)
        }
        let text = lines.joined(separator: "\n")
        let bytes = Array(text.utf8)
        #expect(AppStoreRecognizer.recognize(bytes) == .appStore(.jwsLines))
        let whole = AppStoreFileReader.read(
            bytes, shape: .jwsLines, options: AppStoreReadOptions(trustDecoded: true), checker: StubChecker.unchecked)
        #expect(whole.records.count > AppStoreFileReader.batch)
        try Self.expectStreamedIsWhole(bytes, shape: .jwsLines, named: "jws lines", pieces: [3, 1 << 12, 1 << 20])
        try Self.expectStreamedIsWhole(
            Array((text + "\n").utf8), shape: .jwsLines, named: "jws lines ended", pieces: [5, 1 << 20])
    }
}
