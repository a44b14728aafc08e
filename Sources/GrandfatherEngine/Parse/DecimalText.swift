/// Decimal numbers as text: `-?digits[.digits]`, compared after canonicalisation.
public enum DecimalText {
    /// Calls `body` with the canonical form's bytes (`04.990` → `4.99`, `-0.0` → `0`), built without allocating; `nil` (and no
    /// call) when the text is not a decimal.
    public static func canonical<Result>(
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
