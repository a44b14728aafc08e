import Foundation

/// Bytes written whole to a file descriptor, for the run's files: `write` may write fewer
/// bytes than asked, and a signal may interrupt it before it writes any.
enum FileWriting {
    /// Writes every byte to `descriptor`; the `errno` of the failure that stopped it, else `nil`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Writes a buffer's bytes in place (`customers.csv` is one, hundreds of megabytes).
    static func writeAll(_ buffer: ByteBuffer, to descriptor: Int32) -> Int32? {
        buffer.withBytes { writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let result = Foundation.write(descriptor, bytes.baseAddress?.advanced(by: written), bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += result
        }
        return nil
    }

    /// Writes every byte at `offset` (`pwrite`, for files several threads write at places of
    /// their own); the `errno` of the failure that stopped it, else `nil`.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int) -> Int32? {
        var written = 0
        while written < bytes.count {
            let result = pwrite(
                descriptor, bytes.baseAddress?.advanced(by: written), bytes.count - written, off_t(offset + written))
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += result
        }
        return nil
    }

    /// Reads exactly `bytes.count` bytes at `offset`; the `errno` of the failure that stopped
    /// it, `0` when the file ended first, else `nil`.
    static func readAll(into bytes: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int) -> Int32? {
        var done = 0
        while done < bytes.count {
            let result = pread(
                descriptor, bytes.baseAddress?.advanced(by: done), bytes.count - done, off_t(offset + done))
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
