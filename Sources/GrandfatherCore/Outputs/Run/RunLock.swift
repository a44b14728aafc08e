import Foundation
import GrandfatherEngine

/// Keeps two runs from writing one output folder at once (SPEC §6): an advisory `flock` on
/// `DIR/.lock`, a file that is never moved or removed, so every run locks the same inode.
///
/// The kernel drops the lock when its holder exits, however it dies, so a killed run never
/// blocks the next one. The holder writes its pid and start time into the file, for the
/// message a second run prints.
public final class RunLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock of `directory`, creating the folder and the lock file when missing.
    ///
    /// - Parameters:
    ///   - wait: seconds to wait for a running holder; 0 gives up at once.
    ///   - startedAt: this run's start, written for a run that finds the lock taken.
    /// - Throws: `GrandfatherError.io` naming the holder when the lock stays taken, or when
    ///   the lock file cannot be opened (a symbolic link in its place is refused).
    public static func acquire(
        directory: String, wait: Double = 0, startedAt: String
    ) throws(GrandfatherError) -> RunLock {
        try Disk.makeDirectories(directory)
        return try acquire(file: FileSystem.join(directory, ".lock"), wait: wait, startedAt: startedAt)
    }

    /// Takes the lock held on the file at `path` (created when missing; its folder must
    /// exist), with `acquire(directory:)`'s waiting, message and refusal of a link.
    static func acquire(file path: String, wait: Double, startedAt: String) throws(GrandfatherError) -> RunLock {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .io(path: path, message: "cannot open the lock file: \(FileSystem.describeErrno())")
        }
        let waiting = Stopwatch()
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = FileSystem.describeErrno()
                close(descriptor)
                throw .io(path: path, message: "cannot lock: \(reason)")
            }
            if waiting.elapsed >= wait {
                let holder = Self.holder(descriptor)
                close(descriptor)
                let waited = wait > 0 ? " after waiting \(Self.seconds(wait)) s" : ""
                throw .io(
                    path: path,
                    message:
                        "another run holds the lock (\(holder))\(waited); use --wait SECONDS to wait for it")
            }
            usleep(50_000)
        }
        let lock = RunLock(path: path, descriptor: descriptor)
        lock.record("pid \(getpid()), started \(startedAt)")
        return lock
    }

    /// Writes who holds the lock; failing to is harmless (the message says "unknown").
    private func record(_ holder: String) {
        let bytes = Array((holder + "\n").utf8)
        guard ftruncate(descriptor, 0) == 0 else { return }
        _ = pwrite(descriptor, bytes, bytes.count, 0)
    }

    /// The holder as it described itself.
    private static func holder(_ descriptor: Int32) -> String {
        let capacity = 256
        var buffer = [UInt8](repeating: 0, count: capacity)
        let count = pread(descriptor, &buffer, capacity, 0)
        guard count > 0 else { return "holder unknown" }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "holder unknown" : "held by " + text
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
