import Foundation
import Synchronization

/// Files a run keeps only while it runs (inflated gzip inputs, spilled rows): made in the
/// temporary folder with no name, so nothing is left behind whatever ends the run.
public enum TemporaryFiles {
    private static let folder = Mutex("/tmp")

    /// Where temporary files are made from now on: the command passes `TMPDIR` (the library
    /// reads no environment); `/tmp` until it does.
    public static func useDirectory(_ path: String) {
        guard !path.isEmpty else { return }
        folder.withLock { $0 = path }
    }

    /// The folder temporary files are made in.
    public static var directory: String { folder.withLock { $0 } }

    /// A new file in the temporary folder that has no name: with `O_TMPFILE` where the kernel
    /// and file system have it, otherwise made by `mkstemp` and unlinked at once.
    /// - Parameters:
    ///   - purpose: what the file is for, as the message says it (`to inflate into`).
    ///   - path: the input it is made for, which the message names.
    public static func anonymousFile(purpose: String, for path: String) throws(EngineError) -> Int32 {
        let folder = directory
        #if os(Linux)
            // `O_TMPFILE`, which Swift imports under its glibc name.
            let nameless = Foundation.open(folder, __O_TMPFILE | O_RDWR | O_CLOEXEC, 0o600)
            if nameless >= 0 { return nameless }
        #endif
        var template = Array((folder + "/grandfather-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else {
            throw .io(
                path: path,
                message: "cannot make a temporary file in \(folder) \(purpose): \(String(cString: strerror(errno)))")
        }
        unlink(template)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }
}
