import Foundation

/// Bytes written whole to a file descriptor, for the run's files: `write` may write fewer
/// bytes than asked, and a signal may interrupt it before it writes any.
public enum FileWriting {
    /// Writes every byte to `descriptor`; the `errno` of the failure that stopped it, else `nil`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Writes a buffer's bytes in place (`customers.csv` is one, hundreds of megabytes).
    public static func writeAll(_ buffer: ByteBuffer, to descriptor: Int32) -> Int32? {
        buffer.withBytes { writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        whole(bytes.count) { done in
            Foundation.write(descriptor, bytes.baseAddress?.advanced(by: done), bytes.count - done)
        }
    }

    /// Writes every byte at `offset` (`pwrite`, for files several threads write at places of
    /// their own); the `errno` of the failure that stopped it, else `nil`.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int) -> Int32? {
        whole(bytes.count) { done in
            pwrite(descriptor, bytes.baseAddress?.advanced(by: done), bytes.count - done, off_t(offset + done))
        }
    }

    /// Reads exactly `bytes.count` bytes at `offset`; the `errno` of the failure that stopped
    /// it, `0` when the file ended first, else `nil`.
    public static func readAll(into bytes: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int)
        -> Int32?
    {
        whole(bytes.count) { done in
            pread(descriptor, bytes.baseAddress?.advanced(by: done), bytes.count - done, off_t(offset + done))
        }
    }

    /// Calls `step` with the bytes done so far until all `count` are, again after a signal
    /// interrupted it: `step` is one `read` or `write` call, which may do fewer bytes than
    /// asked. Returns the `errno` of a failed call, `0` when a call did nothing (a read at
    /// the end of the file; a write of some bytes never does), else `nil`.
    private static func whole(_ count: Int, _ step: (_ done: Int) -> Int) -> Int32? {
        var done = 0
        while done < count {
            let result = step(done)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if result == 0 { return 0 }
            done += result
        }
        return nil
    }
}
