import CZlib
import Foundation

/// Inflates the one file a zip archive holds, as Google Play delivers its reports
/// (`salesreport_YYYYMM.zip`, one CSV inside). An archive of several files, an encrypted
/// or ZIP64 one, a method other than stored or deflate, a size or CRC-32 that does not match
/// its data, and a decompression bomb are input errors naming the file.
enum ZipMember {
    /// A local file header's signature, which a zip archive starts with.
    static let magic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let entrySignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50
    /// The end record is 22 bytes and its comment at most 65,535.
    private static let endSearch = 22 + 0xFFFF
    private static let chunkSize = 1 << 20

    /// Inflates the archive open at `input` (`storedSize` bytes), giving `write` the bytes of
    /// its one file in order; returns how many there were.
    static func inflate(
        _ input: Int32, storedSize: Int, path: String,
        into write: (UnsafeRawBufferPointer) throws(EngineError) -> Void
    ) throws(EngineError) -> Int {
        func fail(_ message: String) -> EngineError { .input(file: path, line: nil, message: "zip archive " + message) }
        let tail = try read(input, at: max(0, storedSize - endSearch), count: min(storedSize, endSearch), path: path)
        guard
            let end = (0...max(0, tail.count - 22)).reversed().first(where: {
                tail.count >= $0 + 22 && word(tail, $0) == endSignature
            })
        else { throw fail("has no end record (cut short, or not a zip)") }
        let entries = Int(half(tail, end + 10))
        let directorySize = Int(word(tail, end + 12))
        let directoryOffset = Int(word(tail, end + 16))
        guard entries != 0xFFFF, directoryOffset != 0xFFFF_FFFF else { throw fail("is ZIP64, which is not read") }
        guard directoryOffset + directorySize <= storedSize else { throw fail("has a directory past its end") }
        let directory = try read(input, at: directoryOffset, count: directorySize, path: path)
        var files: [(method: UInt16, flags: UInt16, crc: UInt32, stored: Int, size: Int, offset: Int, name: String)] =
            []
        var position = 0
        for _ in 0..<entries {
            guard position + 46 <= directory.count, word(directory, position) == entrySignature else {
                throw fail("has a damaged directory")
            }
            let nameLength = Int(half(directory, position + 28))
            let extraLength = Int(half(directory, position + 30))
            let commentLength = Int(half(directory, position + 32))
            guard position + 46 + nameLength <= directory.count else { throw fail("has a damaged directory") }
            let name = String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            if !name.hasSuffix("/") {
                files.append(
                    (
                        half(directory, position + 10), half(directory, position + 8), word(directory, position + 16),
                        Int(word(directory, position + 20)), Int(word(directory, position + 24)),
                        Int(word(directory, position + 42)), name
                    ))
            }
            position += 46 + nameLength + extraLength + commentLength
        }
        guard files.count == 1, let file = files.first else {
            throw fail(
                files.isEmpty
                    ? "holds no file" : "holds \(files.count) files: give each report as a file of its own")
        }
        guard file.flags & 1 == 0 else { throw fail("is encrypted") }
        guard file.method == 0 || file.method == 8 else {
            throw fail("stores \(file.name) by method \(file.method); only stored and deflate are read")
        }
        let (scaled, overflow) = storedSize.multipliedReportingOverflow(by: GzipInflater.maximumRatio)
        guard file.size <= max(GzipInflater.ratioFreeAllowance, overflow ? Int.max : scaled) else {
            throw fail(
                "inflates to more than \(GzipInflater.maximumRatio) times its size; refused as a decompression bomb")
        }
        let local = try read(input, at: file.offset, count: 30, path: path)
        guard local.count == 30, word(local, 0) == localSignature else { throw fail("has a damaged file header") }
        let dataStart = file.offset + 30 + Int(half(local, 26)) + Int(half(local, 28))
        guard dataStart + file.stored <= storedSize else { throw fail("is cut short inside \(file.name)") }

        var crc = crc32(0, nil, 0)
        var total = 0
        func emit(_ bytes: UnsafeRawBufferPointer) throws(EngineError) {
            total += bytes.count
            guard total <= file.size else { throw fail("holds more than the \(file.size) bytes it says") }
            crc = crc32(crc, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), uInt(bytes.count))
            try write(bytes)
        }
        if file.method == 0 {
            var offset = dataStart
            while offset < dataStart + file.stored {
                let chunk = try read(
                    input, at: offset, count: min(chunkSize, dataStart + file.stored - offset), path: path)
                guard !chunk.isEmpty else { throw fail("is cut short inside \(file.name)") }
                try chunk.withUnsafeBytes { raw in Result { () throws(EngineError) in try emit(raw) } }.get()
                offset += chunk.count
            }
        } else {
            try inflateRaw(input, from: dataStart, count: file.stored, path: path, fail: fail, into: emit)
        }
        guard total == file.size, crc == file.crc else {
            throw fail("\(file.name) does not match its size or CRC-32 (corrupt)")
        }
        return total
    }

    /// Inflates `count` bytes of raw deflate data from `start`.
    private static func inflateRaw(
        _ input: Int32, from start: Int, count: Int, path: String, fail: (String) -> EngineError,
        into emit: (UnsafeRawBufferPointer) throws(EngineError) -> Void
    ) throws(EngineError) {
        var stream = z_stream()
        guard grandfather_inflate_init_raw(&stream) == Z_OK else {
            throw .io(path: path, message: "cannot start inflating zip data: zlib is out of memory")
        }
        defer { inflateEnd(&stream) }
        let compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { compressed.deallocate() }
        let inflated = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { inflated.deallocate() }
        var offset = start
        // Output left inside zlib when a call filled the whole output buffer: call again
        // before reading more.
        var outputPending = false
        while true {
            if stream.avail_in == 0, !outputPending {
                let wanted = min(chunkSize, start + count - offset)
                let got =
                    wanted > 0
                    ? try FileSystem.read(
                        input, at: offset, into: UnsafeMutableRawPointer(compressed), count: wanted, path: path)
                    : 0
                guard got > 0 else { throw fail("data is cut short") }
                offset += got
                stream.next_in = compressed
                stream.avail_in = UInt32(got)
            }
            stream.next_out = inflated
            stream.avail_out = UInt32(chunkSize)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = chunkSize - Int(stream.avail_out)
            outputPending = stream.avail_out == 0
            if produced > 0 { try emit(UnsafeRawBufferPointer(start: inflated, count: produced)) }
            switch status {
            case Z_STREAM_END: return
            case Z_OK: continue
            case Z_BUF_ERROR where stream.avail_in == 0 && !outputPending: continue
            case Z_MEM_ERROR: throw .io(path: path, message: "cannot inflate zip data: zlib is out of memory")
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw fail("data is corrupt (\(reason))")
            }
        }
    }

    private static func read(_ input: Int32, at offset: Int, count: Int, path: String) throws(EngineError) -> [UInt8] {
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(EngineError) -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try FileSystem.read(input, at: offset, into: base, count: count, path: path)
            }
        }.get()
        buffer.removeSubrange(read...)
        return buffer
    }

    private static func half(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(half(bytes, at)) | UInt32(half(bytes, at + 2)) << 16
    }
}
