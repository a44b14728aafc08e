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
}
