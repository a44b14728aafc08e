/// Decimal numbers as text: `-?digits[.digits]`, compared after canonicalisation.
enum DecimalText {
    /// Calls `body` with the canonical form's bytes (`04.990` → `4.99`, `-0.0` → `0`), built without allocating; `nil` (and no
    /// call) when the text is not a decimal.
    static func canonical<Result>(
        _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result? {
        var index = 0
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        while index < bytes.count, bytes[index] &- 0x30 <= 9 { index += 1 }
        let integerEnd = index
        guard integerEnd > integerStart else { return nil }
        var fractionStart = index
        var fractionEnd = index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < bytes.count, bytes[index] &- 0x30 <= 9 { index += 1 }
            fractionEnd = index
            guard fractionEnd > fractionStart else { return nil }
        }
        guard index == bytes.count else { return nil }
        var firstDigit = integerStart
        while firstDigit < integerEnd - 1, bytes[firstDigit] == UInt8(ascii: "0") { firstDigit += 1 }
        while fractionEnd > fractionStart, bytes[fractionEnd - 1] == UInt8(ascii: "0") { fractionEnd -= 1 }
        let isZero =
            integerEnd - firstDigit == 1 && bytes[firstDigit] == UInt8(ascii: "0") && fractionEnd == fractionStart
        let sign = negative && !isZero ? 1 : 0
        let fraction = fractionEnd > fractionStart ? 1 + fractionEnd - fractionStart : 0
        let length = sign + integerEnd - firstDigit + fraction
        // Most prices are canonical already (`4.99`): handed on as they are, without a copy.
        if length == bytes.count { return body(bytes) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { out in
            var position = 0
            if sign == 1 {
                out[0] = UInt8(ascii: "-")
                position = 1
            }
            for offset in firstDigit..<integerEnd {
                out[position] = bytes[offset]
                position += 1
            }
            if fraction > 0 {
                out[position] = UInt8(ascii: ".")
                position += 1
                for offset in fractionStart..<fractionEnd {
                    out[position] = bytes[offset]
                    position += 1
                }
            }
            return body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(out)[0..<position]))
        }
    }
}

/// Word-at-a-time ASCII checks for the byte-level readers and writers.
enum ASCII {
    /// Whether any of the eight bytes of `word` is `byte` (the classic zero-byte test on
    /// `word ^ pattern`, exact as a yes or no).
    @inline(__always)
    static func word(_ word: UInt64, holds byte: UInt8) -> Bool {
        let pattern = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (pattern &- 0x0101_0101_0101_0101) & ~pattern & 0x8080_8080_8080_8080 != 0
    }

    /// Whether every byte is ASCII other than NUL (1…127): text that needs no further check.
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // A byte of 0 borrows into its high bit; a byte of 128 or more has it set already.
            if (word | (word &- 0x0101_0101_0101_0101)) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            if byte == 0 || byte & 0x80 != 0 { return false }
            offset += 1
        }
        return true
    }
}
