import Crypto
import Foundation

/// An input file opened for reading at any offset, so that several ranges of it can be read
/// at once; its size is fixed when it is opened.
///
/// A gzip-compressed file or a zip archive of one file (told by their first bytes, not their
/// names) reads as what it inflates to, and UTF-16 text (told by its byte-order mark) as its
/// UTF-8: every reader, recognition and split sees the decoded bytes, from a copy decoded once
/// per process (`InflatedFiles`). Only `sha256()` and `storedSize` describe the file as it is
/// on disk, since reports pair them with its path.
public final class ByteSource: @unchecked Sendable {
    /// Chunk size for streaming reads: small enough that a chunk (and the fields a parser
    /// collects from it, or the hash reading it) stays in a core's L2 cache.
    public static let chunkSize = 1 << 18

    /// The path as given on the command line.
    public let path: String
    /// The size of what is read when opened: for a compressed file, the inflated size.
    public let size: Int
    /// The size of the file on disk when opened: `size`, unless reads see a decoded copy.
    public let storedSize: Int
    /// Whether reads see a decoded copy (the file is compressed, or UTF-16), not the file.
    let readsDecodedCopy: Bool
    /// Where records begin: after a UTF-8 byte-order mark, if there is one.
    public private(set) var dataStart = 0
    /// What reads read: the file, or the inflated copy of a compressed one.
    private let descriptor: Int32
    /// The file as on disk, for its digest.
    private let stored: Int32

    /// Opens `path` as `ReadableFile` does: a file that cannot be read is a usage error, and
    /// anything that is not a regular file (a folder, a FIFO, a device) is refused rather than
    /// waited on. A gzip file is inflated, unless this process has already: data that does not
    /// inflate is an input error naming the file.
    public init(path: String) throws(EngineError) {
        let (stored, storedSize) = try ReadableFile.open(path, as: .input)
        var head = [UInt8](repeating: 0, count: 4)
        do throws(EngineError) {
            let count = try Self.read(stored, path: path, at: 0, count: 4, into: &head)
            let container = InflatedFiles.Container.of(head: Array(head[0..<count]))
            readsDecodedCopy = container != .plain || UTF16Transcoder.bigEndian(marking: head[0..<count]) != nil
            if readsDecodedCopy {
                (descriptor, size) = try InflatedFiles.open(
                    compressed: stored, container: container, storedSize: storedSize, path: path)
            } else {
                (descriptor, size) = (stored, storedSize)
            }
        } catch {
            close(stored)
            throw error
        }
        self.path = path
        self.stored = stored
        self.storedSize = storedSize
        if try read(at: 0, count: 3, into: &head) == 3, Array(head[0..<3]) == utf8BOM { dataStart = 3 }
    }

    deinit {
        close(descriptor)
        if stored != descriptor { close(stored) }
    }

    /// Reads up to `count` bytes at `offset` into the front of `buffer` (grown if needed);
    /// returns how many were read, fewer only at the end of the file.
    public func read(at offset: Int, count: Int, into buffer: inout [UInt8]) throws(EngineError) -> Int {
        try Self.read(descriptor, path: path, at: offset, count: count, into: &buffer)
    }

    /// `read(at:count:into:)` from `descriptor`, the file or its inflated copy.
    private static func read(
        _ descriptor: Int32, path: String, at offset: Int, count: Int, into buffer: inout [UInt8]
    ) throws(EngineError) -> Int {
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        let read = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(EngineError) in
                guard let base = raw.baseAddress else { return 0 }
                return try FileSystem.read(descriptor, at: offset, into: base, count: count, path: path)
            }
        }
        return try read.get()
    }

    /// The whole file after the byte-order mark, in one array (JSON arrays are read whole, SPEC §2).
    public func readAll() throws(EngineError) -> [UInt8] {
        var all = [UInt8](repeating: 0, count: size - dataStart)
        let count = try read(at: dataStart, count: all.count, into: &all)
        all.removeSubrange(count...)
        return all
    }

    /// SHA-256 of the file's bytes as on disk (hex; compressed, for a compressed file), read
    /// in chunks: reports pair it with the path, so anyone can check it against the file.
    public func sha256() throws(EngineError) -> String {
        try Self.sha256(of: stored, path: path)
    }

    /// `sha256()` of the file at `path`, opened for that alone and never inflated: a digest
    /// taken on another thread while the file is read.
    public static func sha256(ofFileAt path: String) throws(EngineError) -> String {
        let (stored, _) = try ReadableFile.open(path, as: .input)
        defer { close(stored) }
        return try sha256(of: stored, path: path)
    }

    private static func sha256(of stored: Int32, path: String) throws(EngineError) -> String {
        var hasher = SHA256()
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        var offset = 0
        while case let count = try Self.read(stored, path: path, at: offset, count: Self.chunkSize, into: &chunk),
            count > 0
        {
            chunk.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += count
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

extension ByteSource {
    /// SHA-256 of the text the file holds, as read (decompressed, decoded from UTF-16, after
    /// any byte-order mark): one report given plain and gzip-compressed has one content digest.
    public func contentSHA256() throws(EngineError) -> String {
        var hasher = SHA256()
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        var offset = dataStart
        while case let count = try read(at: offset, count: Self.chunkSize, into: &chunk), count > 0 {
            chunk.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += count
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// The byte-order mark some exports start with.
public let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]
