import Foundation
import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// Gzip data that does not inflate cleanly fails opening as an input error naming the file
/// (which a run reports in one line, exit 2: GrandfatherCoreTests' `GzipInputTests`), never a
/// crash or a hang; a decompression bomb is refused.
@Suite struct GzipInputErrorTests {
    /// A small customers file, gzipped.
    static let member = Gzip.member(
        Array("customer_id,platform,original_app_version\nann,ios,300\nbob,ios,300\ncat,ios,300\n".utf8))

    /// The error opening `bytes`, written as `input.csv.gz`, throws, with the file's path.
    static func openingError(_ bytes: [UInt8]) throws -> (path: String, error: EngineError?) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("input.csv.gz").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ByteSource(path: path)
            return (path, nil)
        } catch {
            return (path, error)
        }
    }

    /// Checks that opening `bytes` fails with `message`, an input error naming the file.
    static func expectRefused(
        _ bytes: [UInt8], _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (path, error) = try openingError(bytes)
        #expect(error == .input(file: path, line: nil, message: message), sourceLocation: sourceLocation)
    }

    static let truncated = "gzip data is truncated: the file ends inside a gzip member"
    static let trailingGarbage = "bytes after the last gzip member are not gzip data (trailing garbage)"

    @Test("a stream cut short is truncated, wherever it is cut")
    func truncatedStream() throws {
        try Self.expectRefused(Array(Self.member.dropLast(4)), Self.truncated)  // in the trailer
        try Self.expectRefused(Array(Self.member.prefix(Self.member.count / 2)), Self.truncated)  // in the data
        try Self.expectRefused([0x1F, 0x8B], Self.truncated)  // in the header
        try Self.expectRefused(Self.member + Self.member.prefix(12), Self.truncated)  // in a second member
    }

    @Test("corrupt data says what zlib found")
    func corruptStream() throws {
        var checksum = Self.member
        checksum[checksum.count - 8] ^= 0xFF  // the CRC-32 of the inflated data
        try Self.expectRefused(checksum, "gzip data is corrupt (incorrect data check)")
        var length = Self.member
        length[length.count - 1] ^= 0xFF  // the inflated size
        try Self.expectRefused(length, "gzip data is corrupt (incorrect length check)")
        var method = Self.member
        method[2] = 7  // not deflate
        try Self.expectRefused(method, "gzip data is corrupt (unknown compression method)")
    }

    @Test("bytes after the last member that are not another member are trailing garbage")
    func trailingGarbage() throws {
        try Self.expectRefused(Self.member + Array("more rows\n".utf8), Self.trailingGarbage)
        try Self.expectRefused(Self.member + [0, 0, 0, 0], Self.trailingGarbage)
        try Self.expectRefused(Self.member + [0x1F], Self.trailingGarbage)
    }

    static let bomb = "gzip data inflates to more than 100 times its size; refused as a decompression bomb"

    @Test("a file inflating to over 100 times its size is refused once past 64 MiB; less is read")
    func decompressionBomb() throws {
        let bomb = Gzip.zeros(mebibytes: 200)
        #expect(bomb.count < 250_000)
        try Self.expectRefused(bomb, Self.bomb)
        // Cut into a member per MiB, the same data inflates at 996 to 1: judged on the whole
        // stream, it is refused all the same.
        let members = (0..<100).flatMap { _ in Gzip.zeros(mebibytes: 1) }
        #expect(members.count * 990 < 100 << 20)
        try Self.expectRefused(members, Self.bomb)
        // The same ratio within the first 64 MiB is allowed.
        let (_, error) = try Self.openingError(Gzip.zeros(mebibytes: 16))
        #expect(error == nil)
    }

}
