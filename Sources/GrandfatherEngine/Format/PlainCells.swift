/// Cells of a plain layout for a database to load (the warehouse layout): RFC 4180 alone,
/// instants in UTC with all six fraction digits, booleans as `true`/`false`, an absent value
/// as an empty cell.
extension ByteBuffer {
    /// Appends text as it is (a header line).
    public func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends bytes as they are (a cell formatted once and kept).
    public func appendRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends a text cell, or an empty cell for an absent one.
    public func appendPlainCell(_ text: String?) {
        guard var text else { return }
        text.withUTF8 { appendPlainCSVCell(UnsafeRawBufferPointer($0)) }
    }

    /// Appends an instant as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, or an empty cell.
    public func appendPlainCell(_ instant: Instant?) {
        guard let instant else { return }
        var outside = false
        appendInPlace(maximum: Instant.maximumISO8601Length) { base in
            guard let length = instant.writeISO8601(into: base, allDigits: true) else {
                outside = true
                return 0
            }
            return length
        }
        // Outside years 0000–9999, which no accepted row holds (the supported range).
        if outside { appendPlainCell(instant.iso8601) }
    }

    /// Appends `true` or `false`, as they are: neither ever needs quotes.
    public func appendPlainCell(_ value: Bool) {
        appendRaw(value ? "true" : "false")
    }

    /// Appends a cell from bytes kept as an array.
    public func appendPlainCSVCell(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { appendPlainCSVCell($0) }
    }
}
