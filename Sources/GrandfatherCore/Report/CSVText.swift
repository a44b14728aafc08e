/// Writes CSV for spreadsheets into bytes: RFC 4180 quoting, LF line ends, and cells that a
/// spreadsheet would run as a formula neutralised with a leading apostrophe.
struct CSVText {
    /// What is written so far.
    let output: ByteBuffer
    private var atRowStart = true
    /// The bytes of the list cell being built, kept for the next: a buffer appended in place,
    /// where an array handed to the items and back was copied (allocated) per cell.
    private let scratch = ByteBuffer(capacity: 256)

    init(reservingCapacity capacity: Int = 4096) {
        output = ByteBuffer(capacity: capacity)
    }

    /// A copy of what is written so far.
    var bytes: [UInt8] { output.array }

    /// Appends one row of cells.
    mutating func row(_ cells: [String?]) {
        for cell in cells { self.cell(cell) }
        endRow()
    }

    /// Appends one cell to the current row.
    mutating func cell(_ value: String?) {
        guard var value else {
            separate()
            return
        }
        value.withUTF8 { cell(UnsafeRawBufferPointer($0)) }
    }

    /// Appends one cell from raw UTF-8 bytes.
    mutating func cell(_ value: UnsafeRawBufferPointer) {
        separate()
        let neutralise = value.first.map(Self.startsFormula) ?? false
        let quote = Self.needsQuotes(value)
        if quote { output.append(UInt8(ascii: "\"")) }
        if neutralise { output.append(UInt8(ascii: "'")) }
        if quote {
            for byte in value {
                if byte == UInt8(ascii: "\"") { output.append(byte) }
                output.append(byte)
            }
            output.append(UInt8(ascii: "\""))
        } else {
            output.append(value)
        }
    }

    /// Appends an instant as ISO-8601 (or an empty cell), formatted straight into the bytes.
    mutating func cell(_ instant: Instant?) {
        guard let instant else {
            separate()
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Instant.maximumISO8601Length) { buffer in
            guard let base = buffer.baseAddress, let length = instant.writeISO8601(into: base) else {
                cell(instant.iso8601)
                return
            }
            cell(UnsafeRawBufferPointer(start: base, count: length))
        }
    }

    /// Appends one cell of `;`-separated items that `write` lists (an empty list is an empty
    /// cell), built in a buffer kept between rows rather than as strings joined per row.
    mutating func listCell(_ write: (inout ListItems) -> Void) {
        scratch.truncate(to: 0)
        var items = ListItems(bytes: scratch)
        write(&items)
        if scratch.count == 0 {
            separate()
        } else {
            cell(scratch.bytes)
        }
    }

    /// The items of one `listCell`.
    struct ListItems {
        fileprivate let bytes: ByteBuffer

        /// Appends one item.
        mutating func item(_ text: String) {
            if bytes.count > 0 { bytes.append(UInt8(ascii: ";")) }
            append(text)
        }

        /// Appends one item of two parts joined by `separator` (`entitlement:source`), without
        /// joining strings.
        mutating func item(_ first: String, _ separator: UInt8, _ second: String) {
            item(first)
            bytes.append(separator)
            append(second)
        }

        /// Extends the last item with `separator` and `part` (a grant's transaction id).
        mutating func extend(_ separator: UInt8, _ part: UnsafeRawBufferPointer) {
            bytes.append(separator)
            bytes.append(part)
        }

        private func append(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(UnsafeRawBufferPointer($0)) }
        }
    }

    mutating func endRow() {
        output.append(0x0A)
        atRowStart = true
    }

    private mutating func separate() {
        if !atRowStart { output.append(UInt8(ascii: ",")) }
        atRowStart = false
    }

    /// Whether a value holds a comma, quote, LF or CR, eight bytes at a time: reports check
    /// every cell of a million rows.
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
    private static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }

    /// One cell as text (for tests and small uses).
    static func cell(_ value: String) -> String {
        var csv = CSVText()
        csv.cell(value)
        return String(decoding: csv.bytes, as: UTF8.self)
    }

    /// The text written so far.
    var text: String { output.withBytes { String(decoding: $0, as: UTF8.self) } }
}
