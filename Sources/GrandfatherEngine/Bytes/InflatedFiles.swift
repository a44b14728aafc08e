import Foundation
import Synchronization

/// The decoded copies of the inputs this process has opened that are not read as they lie:
/// gzip and zip files inflated, UTF-16 text (whether compressed or not) made UTF-8.
///
/// A run opens a `ByteSource` on each input several times (recognition, the size estimate,
/// reading, hashing) and an input may be gigabytes, so each compressed file is inflated once,
/// into a temporary file that is unlinked as soon as it exists (nothing is left behind, even
/// when the process is killed), and every later `ByteSource` on it reads a duplicate of that
/// file's descriptor. The copies live as long as the process (the command audits once and
/// exits), one per file: a file rewritten in place (a new size, modification time or last
/// member's checksum) is inflated afresh and its old copy closed once no one reads it, so a
/// process that rewrites one file again and again (the fuzzer) holds one copy, not many.
enum InflatedFiles {
    /// A file, whatever its content: its device and inode.
    private struct FileNumber: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A file's content as far as it can be told without reading it all: its size, its
    /// modification time and its last 8 bytes (a gzip file's CRC-32 and length of the last
    /// member), which tell apart two writes within the file system's clock tick.
    private struct Version: Hashable {
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var trailer: UInt64
    }

    /// One version of a compressed file and its inflated copy, made by the first `ByteSource`
    /// that needs it while any other waits (different files inflate at once).
    private final class Copy: Sendable {
        struct State {
            /// The unlinked temporary file and its size, once inflated.
            var file: (descriptor: Int32, size: Int)?
            /// How many times inflating the file began (a failed attempt is tried again).
            var inflations = 0
        }

        let version: Version
        let state = Mutex(State())

        init(version: Version) {
            self.version = version
        }

        /// Closes the copy once nothing can read it: every `ByteSource` reads its own duplicate.
        deinit {
            state.withLock { state in
                if let file = state.file { close(file.descriptor) }
            }
        }
    }

    private static let copies = Mutex<[FileNumber: Copy]>([:])

    /// A descriptor of the inflated copy of the gzip file open at `compressed` (its own
    /// duplicate, which the caller closes), inflating the file if this process has not yet,
    /// and the inflated size.
    /// - Parameter path: the file as the run names it, for messages.
    static func open(
        compressed: Int32, container: Container, storedSize: Int, path: String
    ) throws(EngineError) -> (descriptor: Int32, size: Int) {
        let (number, version) = try identity(of: compressed, path: path)
        let copy = copies.withLock { copies in
            if let known = copies[number], known.version == version { return known }
            let made = Copy(version: version)
            copies[number] = made
            return made
        }
        // The duplicate is made under the lock: `copy` may be replaced meanwhile, and once it
        // is released its descriptor is closed.
        return try copy.state.withLock { (state) throws(EngineError) -> (descriptor: Int32, size: Int) in
            let file: (descriptor: Int32, size: Int)
            if let inflated = state.file {
                file = inflated
            } else {
                state.inflations += 1
                file = try inflate(compressed, container: container, storedSize: storedSize, path: path)
                state.file = file
            }
            let duplicate = fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0)
            guard duplicate >= 0 else {
                throw .io(path: path, message: "cannot open the inflated copy: \(String(cString: strerror(errno)))")
            }
            return (duplicate, file.size)
        }
    }

    /// How many times this process began inflating the file at `path` as it is now (tests
    /// check that a run inflates each input once).
    static func inflations(ofFileAt path: String) -> Int {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        guard let (number, version) = try? identity(of: descriptor, path: path),
            let copy = copies.withLock({ $0[number] }), copy.version == version
        else { return 0 }
        return copy.state.withLock { $0.inflations }
    }

    /// Which file is open at `descriptor`, and which version of it.
    private static func identity(
        of descriptor: Int32, path: String
    ) throws(EngineError) -> (FileNumber, Version) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        #if os(Linux)
            let modified = status.st_mtim
        #else
            let modified = status.st_mtimespec
        #endif
        let size = Int(status.st_size)
        return (
            FileNumber(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)),
            Version(
                size: Int64(size), modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec),
                trailer: try trailer(of: descriptor, size: size, path: path))
        )
    }

    /// The last 8 bytes of the file open at `descriptor` (`size` bytes long), as one number.
    private static func trailer(of descriptor: Int32, size: Int, path: String) throws(EngineError) -> UInt64 {
        var trailer: UInt64 = 0
        while true {
            let count = withUnsafeMutableBytes(of: &trailer) { raw in
                pread(descriptor, raw.baseAddress, min(size, raw.count), off_t(max(0, size - raw.count)))
            }
            if count >= 0 { return trailer }
            guard errno == EINTR else { throw .io(path: path, message: String(cString: strerror(errno))) }
        }
    }

    /// How a file's bytes are packed: as one of gzip's or zip's streams, or as they are (a
    /// UTF-16 file is decoded from `plain`).
    enum Container: Sendable {
        case gzip, zip, plain

        /// The container the first bytes of a file show.
        static func of(head: [UInt8]) -> Container {
            if head.starts(with: GzipInflater.magic) { return .gzip }
            if head.starts(with: ZipMember.magic) { return .zip }
            return .plain
        }
    }

    /// Inflates the file open at `compressed` into a new unlinked temporary file, making UTF-16
    /// text UTF-8 on the way; returns that file's descriptor and size. Nothing is kept of a
    /// failed attempt.
    private static func inflate(
        _ compressed: Int32, container: Container, storedSize: Int, path: String
    ) throws(EngineError) -> (descriptor: Int32, size: Int) {
        let folder = TemporaryFiles.directory
        let output = try TemporaryFiles.anonymousFile(purpose: "to inflate into", for: path)
        do throws(EngineError) {
            var text = TextDecoding()
            var size = 0
            let sink = { (bytes: UnsafeRawBufferPointer) throws(EngineError) in
                size += bytes.count
                try write(bytes, to: output, folder: folder, path: path)
            }
            let feed = { (bytes: UnsafeRawBufferPointer) throws(EngineError) in try text.feed(bytes, into: sink) }
            switch container {
            case .gzip: _ = try GzipInflater.inflate(compressed, storedSize: storedSize, path: path, into: feed)
            case .zip: _ = try ZipMember.inflate(compressed, storedSize: storedSize, path: path, into: feed)
            case .plain: try copy(compressed, path: path, into: feed)
            }
            try text.finish(into: sink)
            return (output, size)
        } catch {
            close(output)
            throw error
        }
    }

    /// Gives `write` the whole file open at `input`, a chunk at a time.
    private static func copy(
        _ input: Int32, path: String, into write: (UnsafeRawBufferPointer) throws(EngineError) -> Void
    ) throws(EngineError) {
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { chunk.deallocate() }
        var offset = 0
        while case let count = try FileSystem.read(input, at: offset, into: chunk, count: 1 << 20, path: path),
            count > 0
        {
            try write(UnsafeRawBufferPointer(start: chunk, count: count))
            offset += count
        }
    }

    /// Writes all of `bytes` to `output`: a full disk is a failed run that says where.
    private static func write(
        _ bytes: UnsafeRawBufferPointer, to output: Int32, folder: String, path: String
    ) throws(EngineError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let count = Foundation.write(output, base + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(
                    path: path, message: "cannot inflate into \(folder): \(String(cString: strerror(errno)))")
            }
            written += count
        }
    }
}

/// Passes bytes on as they are, unless the first two mark UTF-16: then as UTF-8.
private struct TextDecoding {
    private var head: [UInt8] = []
    private var decided = false
    private var transcoder: UTF16Transcoder?

    mutating func feed(
        _ bytes: UnsafeRawBufferPointer, into write: (UnsafeRawBufferPointer) throws(EngineError) -> Void
    ) throws(EngineError) {
        guard decided else {
            head.append(contentsOf: bytes)
            guard head.count >= 2 else { return }
            decided = true
            if let bigEndian = UTF16Transcoder.bigEndian(marking: head) {
                transcoder = UTF16Transcoder(bigEndian: bigEndian)
            }
            let first = head
            head = []
            try Self.lend(first) { (raw) throws(EngineError) in try feed(raw, into: write) }
            return
        }
        guard var decoder = transcoder else { return try write(bytes) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 3 / 2)
        decoder.transcode(bytes, into: &utf8)
        transcoder = decoder
        try Self.lend(utf8, to: write)
    }

    mutating func finish(into write: (UnsafeRawBufferPointer) throws(EngineError) -> Void) throws(EngineError) {
        if !decided {
            decided = true
            try Self.lend(head, to: write)
        }
        guard var decoder = transcoder else { return }
        var utf8: [UInt8] = []
        decoder.finish(into: &utf8)
        transcoder = decoder
        try Self.lend(utf8, to: write)
    }

    /// Calls `body` with the bytes of `array`, its typed error kept.
    static func lend(
        _ array: [UInt8], to body: (UnsafeRawBufferPointer) throws(EngineError) -> Void
    ) throws(EngineError) {
        try array.withUnsafeBytes { raw in Result { () throws(EngineError) in try body(raw) } }.get()
    }
}
