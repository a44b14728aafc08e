import CZlib

/// gzip data made at run time with zlib, for the tests of compressed inputs (the engine's and
/// the library's): nothing compressed is kept in the repository.
public enum Gzip {
    /// One gzip member holding `bytes`.
    public static func member(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        deflate([bytes], level: level)
    }

    /// One gzip member holding `count` zero bytes (rounded down to whole MiB), deflated at
    /// level 9 a MiB at a time: a decompression bomb about a thousandth of its inflated size.
    public static func zeros(mebibytes count: Int) -> [UInt8] {
        let mebibyte = [UInt8](repeating: 0, count: 1 << 20)
        return deflate((0..<count).lazy.map { _ in mebibyte }, level: 9)
    }

    /// The chunks of `input`, in order, deflated into one gzip member.
    private static func deflate(_ input: some Sequence<[UInt8]>, level: Int32) -> [UInt8] {
        var stream = z_stream()
        let started = grandfather_deflate_init_gzip(&stream, level)
        precondition(started == Z_OK, "deflateInit2 failed: \(started)")
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        // Deflates `chunk` with `flush`, collecting output until zlib has no more to give.
        func pump(_ chunk: [UInt8], flush: Int32) {
            var chunk = chunk
            chunk.withUnsafeMutableBufferPointer { pending in
                stream.next_in = pending.baseAddress
                stream.avail_in = UInt32(pending.count)
                var status: Int32
                repeat {
                    status = buffer.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        let status = CZlib.deflate(&stream, flush)
                        output.append(contentsOf: out[0..<(out.count - Int(stream.avail_out))])
                        return status
                    }
                    precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR)
                } while stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)
            }
        }
        for chunk in input { pump(chunk, flush: Z_NO_FLUSH) }
        pump([], flush: Z_FINISH)
        return output
    }
}

/// Zip archives made at run time, as Google Play packs its reports: each file deflated (by
/// zlib, through `Gzip`) or stored.
public enum Zip {
    /// An archive holding `files` in order; `encrypted` sets the flag a password-protected
    /// file carries (nothing is really encrypted); `crcDelta` spoils the recorded CRC-32.
    public static func archive(
        _ files: [(name: String, bytes: [UInt8])], deflate: Bool = true, encrypted: Bool = false, crcDelta: UInt32 = 0
    ) -> [UInt8] {
        func half(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func word(_ value: UInt32) -> [UInt8] { half(Int(value & 0xFFFF)) + half(Int(value >> 16)) }
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for file in files {
            let member = Gzip.member(file.bytes)
            // A gzip member is a 10-byte header, the raw deflate data, then CRC-32 and size.
            let crc = member.suffix(8).prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } &+ crcDelta
            let data = deflate ? Array(member.dropFirst(10).dropLast(8)) : file.bytes
            let name = Array(file.name.utf8)
            let fields =
                half(encrypted ? 1 : 0) + half(deflate ? 8 : 0) + half(0) + half(0) + word(crc)
                + word(UInt32(data.count)) + word(UInt32(file.bytes.count)) + half(name.count)
            directory +=
                word(0x0201_4B50) + half(20) + half(20) + fields + half(0) + half(0) + half(0) + half(0)
                + word(0) + word(UInt32(out.count)) + name
            out += word(0x0403_4B50) + half(20) + fields + half(0) + name + data
        }
        let offset = out.count
        out += directory
        out +=
            word(0x0605_4B50) + half(0) + half(0) + half(files.count) + half(files.count)
            + word(UInt32(directory.count)) + word(UInt32(offset)) + half(0)
        return out
    }
}
