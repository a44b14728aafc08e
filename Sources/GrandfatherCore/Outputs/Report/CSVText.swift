import GrandfatherEngine

/// Writes CSV for spreadsheets into bytes: rows of cells, LF line ends, and `;`-separated list
/// cells. Each cell is encoded by `ByteBuffer.appendCSVCell` (GrandfatherEngine/Format/CSVCell.swift):
/// RFC 4180 quoting, and cells that a spreadsheet would run as a formula neutralised with a
/// leading apostrophe.
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
        separate()
        if let value { output.appendCSVCell(value) }
    }

    /// Appends an instant as ISO-8601 (or an empty cell), formatted straight into the bytes.
    mutating func cell(_ instant: Instant?) {
        separate()
        if let instant { output.appendCSVCell(instant) }
    }

    /// Appends one cell of `;`-separated items that `write` lists (an empty list is an empty
    /// cell), built in a buffer kept between rows rather than as strings joined per row.
    mutating func listCell(_ write: (inout ListItems) -> Void) {
        scratch.truncate(to: 0)
        var items = ListItems(bytes: scratch)
        write(&items)
        separate()
        if scratch.count > 0 { output.appendCSVCell(scratch) }
    }

    /// The items of one `listCell`.
    struct ListItems {
        fileprivate let bytes: ByteBuffer

        /// Appends one item.
        mutating func item(_ text: String) {
            if bytes.count > 0 { bytes.append(UInt8(ascii: ";")) }
            bytes.append(text)
        }

        /// Appends one item of two parts joined by `separator` (`entitlement:source`), without
        /// joining strings.
        mutating func item(_ first: String, _ separator: UInt8, _ second: String) {
            item(first)
            bytes.append(separator)
            bytes.append(second)
        }

        /// Extends the last item with `separator` and `part` (a grant's transaction id).
        mutating func extend(_ separator: UInt8, _ part: CompactText) {
            bytes.append(separator)
            bytes.append(part)
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

    /// One cell as text (for tests and small uses).
    static func cell(_ value: String) -> String {
        var csv = CSVText()
        csv.cell(value)
        return String(decoding: csv.bytes, as: UTF8.self)
    }

    /// The text written so far.
    var text: String { output.withBytes { String(decoding: $0, as: UTF8.self) } }
}
