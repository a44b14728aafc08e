import Foundation

/// Opens a file a run reads (an input, the policy, a trusted root) the one way every caller
/// shares, so that each reason a file cannot be read has one wording and one exit code (2,
/// nothing written) wherever it occurs: missing, a symbolic link loop, not readable, a folder,
/// not a regular file.
///
/// The file is opened without blocking and checked on the open descriptor, so a FIFO is
/// refused at once rather than waited on, and nothing can swap the file between the check
/// and the read.
public enum ReadableFile {
    /// What the file is to the run, as messages name it.
    public enum Role: Sendable {
        case input, policy, trustedRoot, mapping

        /// `input file`, `policy file`, `trusted root file`, `mapping file`.
        var file: String { noun + " file" }

        /// `input`, `policy`, `trusted root`, `mapping`.
        var noun: String {
            switch self {
            case .input: return "input"
            case .policy: return "policy"
            case .trustedRoot: return "trusted root"
            case .mapping: return "mapping"
            }
        }
    }

    /// Opens `path` for reading; returns the descriptor (the caller closes it) and the size.
    static func open(_ path: String, as role: Role) throws(EngineError) -> (descriptor: Int32, size: Int) {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw refusal(path, role, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw refusal(path, role, errno: code)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            close(descriptor)
            throw .usage("\(path): \(role.noun) is a directory, not a file")
        default:
            close(descriptor)
            throw .usage("\(path): \(role.noun) is not a regular file")
        }
        // Reads of a regular file never block; clear the flag all the same.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, Int(status.st_size))
    }

    /// Reads a whole small file (the policy, a trusted root) of at most `limit` bytes; its
    /// failures are the caller's (`tooLarge` says what a larger file is).
    public static func readAll<Failure: EngineFailure>(
        _ path: String, as role: Role, limit: Int, tooLarge: (Int) -> Failure
    ) throws(Failure) -> [UInt8] {
        let (descriptor, size): (Int32, Int)
        do {
            (descriptor, size) = try open(path, as: role)
        } catch {
            throw Failure(error)
        }
        defer { close(descriptor) }
        guard size <= limit else { throw tooLarge(size) }
        var bytes = [UInt8](repeating: 0, count: size)
        var total = 0
        while total < size {
            let count = bytes.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress?.advanced(by: total), size - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(.io(path: path, message: "cannot read \(role.file): \(String(cString: strerror(errno)))"))
            }
            if count == 0 { break }
            total += count
        }
        return Array(bytes[..<total])
    }

    /// The one-line reason `open` failed with `code`.
    private static func refusal(_ path: String, _ role: Role, errno code: Int32) -> EngineError {
        switch code {
        case ENOENT: return .usage("\(path): \(role.file) not found")
        case ENOTDIR: return .usage("\(path): \(role.file) not found (a part of the path is not a folder)")
        case ELOOP: return .usage("\(path): \(role.noun) is a symbolic link loop")
        case EACCES, EPERM: return .usage("\(path): \(role.noun) is not readable (permission denied)")
        case ENAMETOOLONG: return .usage("\(path): \(role.noun) path is too long")
        default: return .usage("\(path): cannot open \(role.file): \(String(cString: strerror(code)))")
        }
    }
}
