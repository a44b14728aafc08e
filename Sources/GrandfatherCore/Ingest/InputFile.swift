import Crypto
import Foundation

/// An input file read in chunks, hashed and measured as it goes by, so that the
/// digest and size that `runs` records cost no second pass.
final class InputFile {
    /// Chunk size for streaming reads.
    static let chunkSize = 1 << 20

    /// The path as given on the command line.
    let path: String
    private var descriptor: Int32
    private var hasher = SHA256()
    private(set) var size: Int64 = 0

    /// Opens `path` for reading; a missing file is a usage error, anything that is not a
    /// regular file (a folder, a FIFO, a device) is refused rather than waited on.
    init(path: String) throws(GrandfatherError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { throw .usage("\(path): input file not found") }
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .usage("\(path): not a regular file")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
        self.path = path
        self.descriptor = descriptor
    }

    /// Reads the next chunk into the front of `buffer`, which it sizes to `chunkSize` once;
    /// returns how many bytes were read, 0 at end of file.
    func read(into buffer: inout [UInt8]) throws(GrandfatherError) -> Int {
        if buffer.count < Self.chunkSize { buffer = [UInt8](repeating: 0, count: Self.chunkSize) }
        var result = 0
        repeat {
            result = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, Self.chunkSize) }
        } while result < 0 && errno == EINTR
        if result < 0 { throw .io(path: path, message: String(cString: strerror(errno))) }
        buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<result])) }
        size += Int64(result)
        return result
    }

    /// Reads the rest of the file into one array (JSON arrays are read whole, SPEC §2).
    func readAll() throws(GrandfatherError) -> [UInt8] {
        var all: [UInt8] = []
        var chunk: [UInt8] = []
        while case let count = try read(into: &chunk), count > 0 { all.append(contentsOf: chunk[0..<count]) }
        return all
    }

    /// The SHA-256 (hex) of everything read so far: the file's digest once it was read to the end.
    func digest() -> String {
        hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    deinit {
        close(descriptor)
    }
}

/// What a file is, decided by content (SPEC §8.1) before any row is read.
public struct InputDescription: Sendable, Equatable {
    /// The path as given.
    public var path: String
    public var format: InputFormat
    public var kind: RecordKind
}

/// The byte-order mark some exports start with.
let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]
