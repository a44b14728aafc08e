/// ISO-8601 formatted straight into bytes: `customers.csv` and the snapshot write millions of
/// instants, and a string per instant would be an allocation each. The text is `iso8601`'s.
extension Instant {
    /// Longest text `writeISO8601` writes.
    public static let maximumISO8601Length = 27

    /// The length of the ISO-8601 text of an instant in years 0000–9999, else `nil`.
    private static func fixedLength(_ microseconds: Int64) -> Int? {
        guard microseconds >= -62_167_219_200_000_000, microseconds < 253_402_300_800_000_000 else { return nil }
        let micros = (microseconds % 1_000_000 + 1_000_000) % 1_000_000
        return micros == 0 ? 20 : micros % 1000 == 0 ? 24 : 27
    }

    /// Writes the ISO-8601 text into `out` (room for `maximumISO8601Length` bytes) and returns
    /// its length; `nil`, writing nothing, for years outside 0000–9999 (use `iso8601`).
    /// With `allDigits`, the fraction always has six digits (the warehouse layout's form, which
    /// every engine reads as one timestamp type).
    public func writeISO8601(into out: UnsafeMutablePointer<UInt8>, allDigits: Bool = false) -> Int? {
        guard var length = Self.fixedLength(microseconds) else { return nil }
        if allDigits { length = Self.maximumISO8601Length }
        let (year, month, day, secondOfDay, micros) = Self.fields(microseconds)
        func put(_ value: Int64, _ width: Int, at position: Int) {
            var value = value
            for offset in stride(from: width - 1, through: 0, by: -1) {
                out[position + offset] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                value /= 10
            }
        }
        put(year, 4, at: 0)
        out[4] = UInt8(ascii: "-")
        put(month, 2, at: 5)
        out[7] = UInt8(ascii: "-")
        put(day, 2, at: 8)
        out[10] = UInt8(ascii: "T")
        put(secondOfDay / 3600, 2, at: 11)
        out[13] = UInt8(ascii: ":")
        put(secondOfDay / 60 % 60, 2, at: 14)
        out[16] = UInt8(ascii: ":")
        put(secondOfDay % 60, 2, at: 17)
        if length > 20 {
            out[19] = UInt8(ascii: ".")
            if length == 24 { put(micros / 1000, 3, at: 20) } else { put(micros, 6, at: 20) }
        }
        out[length - 1] = UInt8(ascii: "Z")
        return length
    }
}
