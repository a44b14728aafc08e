import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// Inputs read through a decoded copy besides gzip: a zip archive of one file, and UTF-16
/// text, each read as the UTF-8 bytes inside.
@Suite struct DecodedInputTests {
    static let text = "Order Number,Country of Buyer\nGPA.1,DE\nGPA.2,JP \u{65E5}\u{672C} \u{1F5FA}\n"

    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        let units = Array(text.utf16)
        return (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
            + units.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// The bytes a `ByteSource` on a file of `bytes` reads, with its sizes.
    static func read(_ bytes: [UInt8]) throws -> (bytes: [UInt8], size: Int, stored: Int, decoded: Bool) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decoded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("input").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let source = try ByteSource(path: path)
        return (try source.readAll(), source.size, source.storedSize, source.readsDecodedCopy)
    }

    /// The message of the error reading a file of `bytes` gives.
    static func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try read(bytes)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func utf16EitherWayReadsAsUTF8() throws {
        for bigEndian in [false, true] {
            let encoded = Self.utf16(Self.text, bigEndian: bigEndian)
            let read = try Self.read(encoded)
            #expect(read.bytes == Array(Self.text.utf8))
            #expect(read.decoded)
            #expect(read.stored == encoded.count)
        }
    }

    @Test func transcodingSurvivesChunksCutAnywhere() {
        let encoded = Self.utf16(Self.text, bigEndian: false)
        for cut in 0...encoded.count {
            var transcoder = UTF16Transcoder(bigEndian: false)
            var output: [UInt8] = []
            encoded[..<cut].withUnsafeBytes { transcoder.transcode($0, into: &output) }
            encoded[cut...].withUnsafeBytes { transcoder.transcode($0, into: &output) }
            transcoder.finish(into: &output)
            #expect(output == Array(Self.text.utf8), "cut at \(cut)")
        }
    }

    @Test func brokenUTF16BecomesBytesThatAreNotUTF8() {
        // A lone high surrogate, a lone low one, then an odd last byte: each is written as bytes
        // that are not UTF-8 (the surrogate's three-byte form, 0xFF), so its row is rejected.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x42, 0x00, 0x43]
        var transcoder = UTF16Transcoder(bigEndian: false)
        var output: [UInt8] = []
        bytes.withUnsafeBytes { transcoder.transcode($0, into: &output) }
        transcoder.finish(into: &output)
        #expect(output == [0xED, 0xA0, 0x80, 0x41, 0xED, 0xB0, 0x80, 0x42, 0xFF])
        #expect(String(validating: output, as: UTF8.self) == nil)
        #expect(UTF16Transcoder.bigEndian(marking: [0xEF, 0xBB, 0xBF]) == nil)
    }

    @Test func aZipOfOneFileReadsAsTheFile() throws {
        let bytes = Array(Self.text.utf8)
        for deflate in [true, false] {
            let archive = Zip.archive([("salesreport_202501.csv", bytes)], deflate: deflate)
            let read = try Self.read(archive)
            #expect(read.bytes == bytes)
            #expect(read.size == bytes.count)
            #expect(read.stored == archive.count)
        }
        // A folder entry beside the one file is no second file.
        let withFolder = Zip.archive([("sales/", []), ("sales/salesreport_202501.csv", bytes)])
        #expect(try Self.read(withFolder).bytes == bytes)
        // And the file inside may be UTF-16.
        let zipped = Zip.archive([("salesreport_202501.csv", Self.utf16(Self.text, bigEndian: false))])
        #expect(try Self.read(zipped).bytes == bytes)
    }

    @Test func whatAZipCannotGiveIsAnInputError() {
        let bytes = Array(Self.text.utf8)
        #expect(
            Self.failure(Zip.archive([("a.csv", bytes), ("b.csv", bytes)]))?.contains(
                "holds 2 files: give each report as a file of its own") == true)
        #expect(Self.failure(Zip.archive([("a.csv", bytes)], encrypted: true))?.contains("is encrypted") == true)
        #expect(Self.failure(Zip.archive([("a.csv", bytes)], crcDelta: 1))?.contains("CRC-32") == true)
        let archive = Zip.archive([("a.csv", bytes)])
        #expect(Self.failure(Array(archive.prefix(archive.count - 30)))?.contains("no end record") == true)
    }
}
