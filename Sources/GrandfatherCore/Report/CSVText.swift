/// Writes CSV for spreadsheets: RFC 4180 quoting, LF line ends, and cells that a
/// spreadsheet would run as a formula neutralised with a leading apostrophe.
struct CSVText {
    private(set) var text = ""

    /// Appends one row.
    mutating func row(_ cells: [String?]) {
        var first = true
        for cell in cells {
            if !first { text += "," }
            first = false
            text += Self.cell(cell ?? "")
        }
        text += "\n"
    }

    /// One cell: neutralised (`=`, `+`, `-`, `@`, tab, CR lead to `'`) then quoted when needed.
    static func cell(_ value: String) -> String {
        var value = value
        if let first = value.utf8.first,
            [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D].contains(first)
        {
            value = "'" + value
        }
        guard
            value.utf8.contains(where: {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
            })
        else { return value }
        return "\"" + value.doublingQuotes() + "\""
    }
}

extension String {
    fileprivate func doublingQuotes() -> String {
        split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
    }
}
