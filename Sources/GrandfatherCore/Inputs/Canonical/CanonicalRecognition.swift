import GrandfatherEngine

/// What recognising a canonical file decides besides its kind: its format, and whether a
/// CSV header or a first JSON object can be read as records at all (SPEC §8.1).
enum CanonicalRecognition {
    /// `[` is a JSON array, `{` JSON Lines, anything else CSV.
    static func format(startingWith byte: UInt8?) -> InputFormat {
        switch byte {
        case UInt8(ascii: "["): return .jsonArray
        case UInt8(ascii: "{"): return .jsonLines
        default: return .csv
        }
    }

    /// Whether the syntax error lies past the last non-blank byte of its line: the object was
    /// cut by its line's end, as a pretty-printed object is.
    static func lineEndsInside(_ bytes: [UInt8], _ problem: JSONSyntaxError) -> Bool {
        var line = 1
        var start = 0
        for index in bytes.indices where line < problem.line && bytes[index] == 0x0A {
            line += 1
            start = index + 1
        }
        guard line == problem.line else { return false }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
        let text = bytes[start..<end].reversed().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        return problem.column > text.count
    }

    /// A CSV header must name each column once and carry every required field of its kind.
    static func checkHeader(_ header: [String], kind: RecordKind, path: String) throws(GrandfatherError) {
        try CSVHeaderRule.checkEachNamedOnce(header, path: path)
        let required: [String]
        switch kind {
        case .customers: required = [CustomerField.customerID, .platform].map(\.name)
        case .transactions:
            required = [TransactionField.transactionID, .customerID, .productID, .productType, .purchaseDate].map(
                \.name)
        // Canonical files hold records; a sales report or claims file is recognised by its own source.
        case .sales, .evidence: required = []
        }
        for name in required where !header.contains(name) {
            throw .input(file: path, line: 1, message: "\(kind.rawValue) header lacks required column \"\(name)\"")
        }
    }
}
