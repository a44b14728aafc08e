/// Turns UTF-16 text (little- or big-endian, as its byte-order mark says) into UTF-8 as it
/// streams by, so that a report Google Play writes in UTF-16 reads like any other file.
/// The mark itself is dropped. A lone surrogate is written in its own three-byte form and an
/// odd last byte as 0xFF: neither is UTF-8, so the row that holds one is rejected at its line
/// as a row holding invalid UTF-8 is, rather than read with U+FFFD in its place.
struct UTF16Transcoder {
    /// The byte order a file's first two bytes mark it as UTF-16 in: `true` for big-endian,
    /// `false` for little-endian, `nil` when they are no UTF-16 mark.
    static func bigEndian(marking head: some Collection<UInt8>) -> Bool? {
        guard head.count >= 2 else { return nil }
        let first = head[head.startIndex]
        let second = head[head.index(after: head.startIndex)]
        if first == 0xFF, second == 0xFE { return false }
        if first == 0xFE, second == 0xFF { return true }
        return nil
    }

    private let bigEndian: Bool
    /// Bytes of the mark still to drop.
    private var markLeft = 2
    /// A unit's first byte, when a chunk ended between its two.
    private var oddByte: UInt8?
    /// A high surrogate waiting for its low one.
    private var high: UInt16?

    init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    /// Appends the UTF-8 of `bytes`, the next bytes of the text, to `output`.
    mutating func transcode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        for byte in bytes {
            if markLeft > 0 {
                markLeft -= 1
                continue
            }
            guard let first = oddByte else {
                oddByte = byte
                continue
            }
            oddByte = nil
            unit(bigEndian ? UInt16(first) << 8 | UInt16(byte) : UInt16(byte) << 8 | UInt16(first), into: &output)
        }
    }

    /// Ends the text: what is left half-read is written as bytes that are not UTF-8.
    mutating func finish(into output: inout [UInt8]) {
        if let first = high { Self.append(UInt32(first), to: &output) }
        if oddByte != nil { output.append(0xFF) }
        high = nil
        oddByte = nil
    }

    private mutating func unit(_ unit: UInt16, into output: inout [UInt8]) {
        switch unit {
        case 0xD800...0xDBFF:
            if let first = high { Self.append(UInt32(first), to: &output) }
            high = unit
        case 0xDC00...0xDFFF:
            guard let first = high else {
                Self.append(UInt32(unit), to: &output)
                return
            }
            high = nil
            Self.append(0x10000 + (UInt32(first - 0xD800) << 10 | UInt32(unit - 0xDC00)), to: &output)
        default:
            if let first = high {
                Self.append(UInt32(first), to: &output)
                high = nil
            }
            Self.append(UInt32(unit), to: &output)
        }
    }

    private static func append(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(scalar >> 18))
            output.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}
