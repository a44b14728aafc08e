import Foundation
import Synchronization

/// The inflated copies of the gzip-compressed inputs this process has opened.
///
/// A run opens a `ByteSource` on each input several times (recognition, the size estimate,
/// reading, hashing) and an input may be gigabytes, so each compressed file is inflated once,
/// into a temporary file that is unlinked as soon as it exists (nothing is left behind, even
/// when the process is killed), and every later `ByteSource` on it reads a duplicate of that
/// file's descriptor. A file is known by its device, inode, size and modification time, so a
/// file replaced or rewritten in place is inflated afresh. The copies live as long as the
/// process: the command audits once and exits.
public enum InflatedFiles {
    /// A file on disk as `fstat` tells it apart from any other, and from itself rewritten.
    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
    }

    /// One compressed file's inflated copy, made by the first `ByteSource` that needs it while
    /// any other waits (different files inflate at once).
    private final class Copy: Sendable {
        struct State {
            /// The unlinked temporary file and its size, once inflated.
            var file: (descriptor: Int32, size: Int)?
            /// How many times inflating the file began (a failed attempt is tried again).
            var inflations = 0
        }

        let state = Mutex(State())
    }

    private static let copies = Mutex<[Identity: Copy]>([:])
    private static let temporaryDirectory = Mutex("/tmp")

    /// Where the inflated copies are made from now on: the command passes `TMPDIR` (the
    /// library reads no environment); `/tmp` until it does.
    public static func useTemporaryDirectory(_ path: String) {
        guard !path.isEmpty else { return }
        temporaryDirectory.withLock { $0 = path }
    }

    /// A descriptor of the inflated copy of the gzip file open at `compressed` (its own
    /// duplicate, which the caller closes), inflating the file if this process has not yet,
    /// and the inflated size.
    /// - Parameter path: the file as the run names it, for messages.
    static func open(
        compressed: Int32, storedSize: Int, path: String
    ) throws(GrandfatherError) -> (descriptor: Int32, size: Int) {
        let identity = try identity(of: compressed, path: path)
        let copy = copies.withLock { copies in
            if let known = copies[identity] { return known }
            let made = Copy()
            copies[identity] = made
            return made
        }
        let file = try copy.state.withLock { (state) throws(GrandfatherError) -> (descriptor: Int32, size: Int) in
            if let file = state.file { return file }
            state.inflations += 1
            let file = try inflate(compressed, storedSize: storedSize, path: path)
            state.file = file
            return file
        }
        let duplicate = fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            throw .io(path: path, message: "cannot open the inflated copy: \(String(cString: strerror(errno)))")
        }
        return (duplicate, file.size)
    }

    /// How many times this process began inflating the file at `path` as it is now (tests
    /// check that a run inflates each input once).
    static func inflations(ofFileAt path: String) -> Int {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        guard let identity = try? identity(of: descriptor, path: path),
            let copy = copies.withLock({ $0[identity] })
        else { return 0 }
        return copy.state.withLock { $0.inflations }
    }

    /// The identity of the file open at `descriptor`.
    private static func identity(of descriptor: Int32, path: String) throws(GrandfatherError) -> Identity {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        #if os(Linux)
            let modified = status.st_mtim
        #else
            let modified = status.st_mtimespec
        #endif
        return Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec))
    }

    /// Inflates the file open at `compressed` into a new unlinked temporary file; returns that
    /// file's descriptor and size. Nothing is kept of a failed attempt.
    private static func inflate(
        _ compressed: Int32, storedSize: Int, path: String
    ) throws(GrandfatherError) -> (descriptor: Int32, size: Int) {
        let folder = temporaryDirectory.withLock { $0 }
        let output = try anonymousFile(in: folder, for: path)
        do throws(GrandfatherError) {
            let size = try GzipInflater.inflate(compressed, storedSize: storedSize, path: path) {
                (bytes) throws(GrandfatherError) in
                try write(bytes, to: output, folder: folder, path: path)
            }
            return (output, size)
        } catch {
            close(output)
            throw error
        }
    }

    /// A new file in `folder` that has no name: with `O_TMPFILE` where the kernel and file
    /// system have it, otherwise made by `mkstemp` and unlinked at once.
    private static func anonymousFile(in folder: String, for path: String) throws(GrandfatherError) -> Int32 {
        #if os(Linux)
            // `O_TMPFILE`, which Swift imports under its glibc name.
            let nameless = Foundation.open(folder, __O_TMPFILE | O_RDWR | O_CLOEXEC, 0o600)
            if nameless >= 0 { return nameless }
        #endif
        var template = Array((folder + "/grandfather-inflated-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else {
            throw .io(
                path: path,
                message:
                    "cannot make a temporary file in \(folder) to inflate into: \(String(cString: strerror(errno)))"
            )
        }
        unlink(template)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// Writes all of `bytes` to `output`: a full disk is a failed run that says where.
    private static func write(
        _ bytes: UnsafeRawBufferPointer, to output: Int32, folder: String, path: String
    ) throws(GrandfatherError) {
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
