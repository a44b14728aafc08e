/// One CSV cell's bytes as spreadsheets read them, appended in place: RFC 4180 quoting, and a
/// value that a spreadsheet would run as a formula neutralised with a leading apostrophe.
/// Reports write every cell of a million rows through here, so a value is checked eight
/// bytes at a time and copied without a string in between.
extension ByteBuffer {
    /// Appends one cell from raw UTF-8 bytes.
    public func appendCSVCell(_ value: UnsafeRawBufferPointer) {
        appendCSVCell(value, neutralisingFormulas: true)
    }

    /// Appends one cell as RFC 4180 alone writes it: for files a database loads (the warehouse
    /// layout), where a leading apostrophe would change the value.
    public func appendPlainCSVCell(_ value: UnsafeRawBufferPointer) {
        appendCSVCell(value, neutralisingFormulas: false)
    }

    private func appendCSVCell(_ value: UnsafeRawBufferPointer, neutralisingFormulas: Bool) {
        let neutralise = neutralisingFormulas && (value.first.map(CSVCell.startsFormula) ?? false)
        let quote = CSVCell.needsQuotes(value)
        if quote { append(UInt8(ascii: "\"")) }
        if neutralise { append(UInt8(ascii: "'")) }
        if quote {
            for byte in value {
                if byte == UInt8(ascii: "\"") { append(byte) }
                append(byte)
            }
            append(UInt8(ascii: "\""))
        } else {
            append(value)
        }
    }

    /// Appends one cell from a string's UTF-8.
    public func appendCSVCell(_ value: String) {
        var value = value
        value.withUTF8 { appendCSVCell(UnsafeRawBufferPointer($0)) }
    }

    /// Appends one cell from another buffer's bytes (a list cell built beside the output).
    public func appendCSVCell(_ value: ByteBuffer) {
        value.withBytes { appendCSVCell($0) }
    }

    /// Appends an instant as ISO-8601, formatted straight into the bytes.
    public func appendCSVCell(_ instant: Instant) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Instant.maximumISO8601Length) { buffer in
            guard let base = buffer.baseAddress, let length = instant.writeISO8601(into: base) else {
                appendCSVCell(instant.iso8601)
                return
            }
            appendCSVCell(UnsafeRawBufferPointer(start: base, count: length))
        }
    }
}

/// What `appendCSVCell` checks a value for.
enum CSVCell {
    /// Whether a value holds a comma, quote, LF or CR, eight bytes at a time.
    static func needsQuotes(_ value: UnsafeRawBufferPointer) -> Bool {
        guard let base = value.baseAddress else { return false }
        var offset = 0
        while offset + 8 <= value.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if ASCII.word(word, holds: 0x2C) || ASCII.word(word, holds: 0x22) || ASCII.word(word, holds: 0x0A)
                || ASCII.word(word, holds: 0x0D)
            {
                return true
            }
            offset += 8
        }
        while offset < value.count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            if byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D { return true }
            offset += 1
        }
        return false
    }

    /// `=`, `+`, `-`, `@`, tab and CR make a spreadsheet evaluate the cell.
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }
}
