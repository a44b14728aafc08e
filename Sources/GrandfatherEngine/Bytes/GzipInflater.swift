import CZlib
import Foundation

/// Inflates a gzip file, every member of it in turn (as gzip(1) does: RevenueCat's exports
/// may be several members end to end), and refuses what a hostile file could do with it:
/// a stream cut short or corrupt is an input error naming the file, bytes after the last
/// member that are not another member are too, and a small file that would inflate to fill
/// the disk is refused as a decompression bomb.
enum GzipInflater {
    /// The two bytes every gzip member starts with (RFC 1952).
    static let magic: [UInt8] = [0x1F, 0x8B]
    /// Deflate compresses at most about 1032 to 1 (a file of one repeated byte), and exports
    /// of real rows nowhere near that: a file that inflates to more than this many times its
    /// size is a bomb, not an export. Judged on the whole stream, every member together. Once
    /// 1000, which a bomb cut into 1 MiB members passed at 996 to 1: 100 leaves deflate's
    /// ceiling far behind, and is the bound Apache POI's `ZipSecureFile` sets by default.
    static let maximumRatio = 100
    /// Inflated bytes allowed whatever the ratio, so that the ratio is judged on enough data.
    static let ratioFreeAllowance = 64 << 20
    /// Bytes read and inflated at a time: few system calls, and little memory.
    private static let chunkSize = 1 << 20

    /// Inflates the gzip file open at `input` (`storedSize` bytes on disk), giving `write`
    /// the inflated bytes in order; returns how many there were.
    /// - Parameter path: the file as the run names it, for messages.
    /// - Throws: `EngineError.input` when the data is truncated, corrupt, followed by
    ///   bytes that are not gzip, or a bomb; `.io` when the file cannot be read; whatever
    ///   `write` throws.
    static func inflate(
        _ input: Int32, storedSize: Int, path: String,
        into write: (UnsafeRawBufferPointer) throws(EngineError) -> Void
    ) throws(EngineError) -> Int {
        var stream = z_stream()
        guard grandfather_inflate_init_gzip(&stream) == Z_OK else {
            throw .io(path: path, message: "cannot start inflating gzip data: zlib is out of memory")
        }
        defer { inflateEnd(&stream) }
        let compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { compressed.deallocate() }
        let inflated = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { inflated.deallocate() }

        let (scaled, overflow) = storedSize.multipliedReportingOverflow(by: maximumRatio)
        let limit = max(ratioFreeAllowance, overflow ? Int.max : scaled)
        var read = 0  // compressed bytes read so far
        var memberStart = 0  // where the member being inflated starts
        var members = 0  // members inflated to their end
        var insideMember = false  // whether any byte of the member at `memberStart` was inflated
        var total = 0
        while true {
            if stream.avail_in == 0 {
                let count = try readChunk(input, at: read, into: compressed, path: path)
                if count == 0 {
                    guard !insideMember else {
                        throw try problem(truncated, in: input, memberStart: memberStart, members: members, path: path)
                    }
                    return total
                }
                read += count
                stream.next_in = compressed
                stream.avail_in = UInt32(count)
            }
            stream.next_out = inflated
            stream.avail_out = UInt32(chunkSize)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = chunkSize - Int(stream.avail_out)
            if produced > 0 {
                total += produced
                guard total <= limit else { throw .input(file: path, line: nil, message: bomb) }
                try write(UnsafeRawBufferPointer(start: inflated, count: produced))
            }
            switch status {
            case Z_OK:
                insideMember = true
            case Z_STREAM_END:
                // Another member may follow: inflate it with the same stream.
                members += 1
                insideMember = false
                memberStart = read - Int(stream.avail_in)
                inflateReset(&stream)
            case Z_BUF_ERROR where stream.avail_in == 0:
                continue  // no progress without more input: read it
            case Z_MEM_ERROR:
                throw .io(path: path, message: "cannot inflate gzip data: zlib is out of memory")
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw try problem(
                    "gzip data is corrupt (\(reason))", in: input, memberStart: memberStart, members: members,
                    path: path)
            }
        }
    }

    /// The message for a file cut short inside a gzip member.
    static let truncated = "gzip data is truncated: the file ends inside a gzip member"
    /// The message for a decompression bomb.
    static let bomb =
        "gzip data inflates to more than \(maximumRatio) times its size; refused as a decompression bomb"
    /// The message for bytes after the last member that do not start another.
    static let trailingGarbage = "bytes after the last gzip member are not gzip data (trailing garbage)"

    /// The error for `message` at the member starting at `memberStart`, unless that "member"
    /// does not start as one after others did: then it is trailing garbage.
    private static func problem(
        _ message: String, in input: Int32, memberStart: Int, members: Int, path: String
    ) throws(EngineError) -> EngineError {
        guard members > 0 else { return .input(file: path, line: nil, message: message) }
        let head = UnsafeMutablePointer<UInt8>.allocate(capacity: magic.count)
        defer { head.deallocate() }
        let count = try readChunk(input, at: memberStart, into: head, count: magic.count, path: path)
        let startsMember = count == magic.count && Array(UnsafeBufferPointer(start: head, count: count)) == magic
        return .input(file: path, line: nil, message: startsMember ? message : trailingGarbage)
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    private static func readChunk(
        _ input: Int32, at offset: Int, into buffer: UnsafeMutablePointer<UInt8>, count: Int = chunkSize,
        path: String
    ) throws(EngineError) -> Int {
        try FileSystem.read(input, at: offset, into: UnsafeMutableRawPointer(buffer), count: count, path: path)
    }
}
