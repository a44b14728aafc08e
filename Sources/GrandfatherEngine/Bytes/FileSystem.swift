import Foundation

/// The few POSIX file operations the writer needs, each failing with a one-line
/// `EngineError.io` that names the path.
public enum FileSystem {
    public static func describeErrno() -> String { String(cString: strerror(errno)) }

    /// Reads up to `count` bytes at `offset` of the open file `descriptor` into `buffer`,
    /// retrying interrupted and short reads; returns how many were read, fewer only at the
    /// end of the file.
    static func read(
        _ descriptor: Int32, at offset: Int, into buffer: UnsafeMutableRawPointer, count: Int, path: String
    ) throws(EngineError) -> Int {
        var total = 0
        while total < count {
            let result = pread(descriptor, buffer + total, count - total, off_t(offset + total))
            if result < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, message: describeErrno())
            }
            if result == 0 { break }
            total += result
        }
        return total
    }

    /// `folder/name`, with one slash between them whatever `folder` ends with.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// Creates a folder and any missing parents (mode 0755). A failure names the part of the
    /// path that could not be made and the system's reason (`Not a directory` when a file
    /// stands where a folder must be).
    public static func makeDirectories(_ path: String) throws(EngineError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += component
            if mkdir(prefix, 0o755) != 0 {
                let code = errno
                var status = stat()
                let isFolder = stat(prefix, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
                guard code == EEXIST, isFolder else {
                    let reason = code == EEXIST ? "it is a file, not a folder" : String(cString: strerror(code))
                    let part = prefix == path ? "" : " (at \(prefix))"
                    throw .io(path: path, message: "cannot create folder\(part): \(reason)")
                }
            }
            prefix += "/"
        }
    }

    /// Creates a new folder (of `mode`, less the umask); fails if anything already has that
    /// name (so it cannot be hijacked).
    public static func makeFreshDirectory(_ path: String, mode: mode_t = 0o755) throws(EngineError) {
        guard mkdir(path, mode) == 0 else {
            throw .io(path: path, message: "cannot create folder: \(describeErrno())")
        }
    }

    /// Writes bytes to a new file (refusing an existing name or symlink), then fsyncs it.
    public static func writeNewFile(_ path: String, _ bytes: [UInt8]) throws(EngineError) {
        try writeNewFile(path) { FileWriting.writeAll(bytes, to: $0) }
    }

    /// Writes a buffer's bytes, without a copy, to a new file as above.
    public static func writeNewFile(_ path: String, _ bytes: ByteBuffer) throws(EngineError) {
        try writeNewFile(path) { FileWriting.writeAll(bytes, to: $0) }
    }

    /// Creates the file, lets `write` fill it (it returns the `errno` of a failed write), and
    /// fsyncs it.
    public static func writeNewFile(_ path: String, _ write: (Int32) -> Int32?) throws(EngineError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: path, message: "cannot create file: \(describeErrno())") }
        defer { close(descriptor) }
        if let code = write(descriptor) {
            throw .io(path: path, message: "cannot write: \(String(cString: strerror(code)))")
        }
        guard fsync(descriptor) == 0 else { throw .io(path: path, message: "cannot flush: \(describeErrno())") }
    }

    /// fsyncs an existing file or folder so that its contents or entries are on disk.
    public static func sync(_ path: String) throws(EngineError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, message: "cannot open to flush: \(describeErrno())") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io(path: path, message: "cannot flush: \(describeErrno())") }
    }

    public static func rename(_ from: String, _ to: String) throws(EngineError) {
        guard Foundation.rename(from, to) == 0 else {
            throw .io(path: to, message: "cannot rename \(from) into place: \(describeErrno())")
        }
    }

    /// Removes a file or folder tree; missing is fine.
    public static func remove(_ path: String) throws(EngineError) {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch let error as CocoaError where error.code == .fileNoSuchFile {
            return
        } catch {
            throw .io(path: path, message: "cannot remove: \((error as NSError).localizedDescription)")
        }
    }

    /// The target of a symbolic link, or `nil` when `path` is not one.
    public static func linkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    /// The entries of a folder, sorted; none when it cannot be read.
    public static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Whether `path` is a folder, or a link to one.
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `path` is a regular file, or a link to one.
    public static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    public static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }
}
