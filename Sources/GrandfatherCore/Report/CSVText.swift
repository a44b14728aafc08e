/// Writes CSV for spreadsheets into bytes: RFC 4180 quoting, LF line ends, and cells that a
/// spreadsheet would run as a formula neutralised with a leading apostrophe.
struct CSVText {
    private(set) var bytes: [UInt8] = []
    private var atRowStart = true

    init(reservingCapacity capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

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
        let quote = value.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        if quote { bytes.append(UInt8(ascii: "\"")) }
        if neutralise { bytes.append(UInt8(ascii: "'")) }
        if quote {
            for byte in value {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: value)
        }
    }

    mutating func endRow() {
        bytes.append(0x0A)
        atRowStart = true
    }

    private mutating func separate() {
        if !atRowStart { bytes.append(UInt8(ascii: ",")) }
        atRowStart = false
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
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
