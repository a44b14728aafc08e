import GrandfatherEngine

/// What a file no source takes looks like, and what it lacks: the one line a run fails with
/// when recognition finds no reader (SPEC §8.1), so that the cause is named rather than the
/// last reader's complaint ("cannot tell customers from transactions" said of a financial
/// report, or of UTF-16 read as bytes).
enum InputDiagnosis {
    /// What every canonical kind needs, as the sentence's end says it.
    static let canonicalNeeds =
        "canonical customers need customer_id and platform; transactions need transaction_id, customer_id, "
        + "product_id, product_type and purchase_date (docs/Inputs.md lists every format read)"

    /// The sentence for `file`, once every source has passed it by.
    static func describe(_ file: inout FilePeek) -> String {
        let head = Array(file.prefix.prefix(4_096))
        if looksLikeUTF16WithoutByteOrderMark(head) {
            return "the file looks like UTF-16 with no byte order mark (every other byte is NUL): "
                + "save it as UTF-8, or as UTF-16 with its byte order mark"
        }
        if head.contains(0) { return "the file holds NUL bytes: it is not text, so no reader takes it" }
        if let first = file.firstNonBlank, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            let record = try? file.firstJSONRecord()
            guard let keys = record?.keys, !keys.isEmpty else {
                if record == nil, let problem = file.firstJSONProblem() {
                    return "a JSON file whose first value cannot be read (\(problem)): no reader takes it; "
                        + canonicalNeeds
                }
                return "a JSON file with no object to read: no reader takes it; " + canonicalNeeds
            }
            return "a JSON file whose first object has the keys \(listed(keys)): no reader takes it; "
                + canonicalNeeds
        }
        guard let line = file.firstLine() else { return "no line to read a header from: no reader takes it" }
        let (delimiter, name) = likelyDelimiter(line)
        let names = line.split(separator: delimiter, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if let known = knownForeignReport(names) { return known }
        return "a \(name) file whose header names \(listed(names)): no reader takes it; " + canonicalNeeds
    }

    /// Names a reader does not take that are known: what the file is, and what to give instead.
    private static func knownForeignReport(_ names: [String]) -> String? {
        let given = Set(names)
        if given.isSuperset(of: ["Start Date", "End Date", "Partner Share", "Vendor Identifier"]) {
            return "an App Store Connect financial report (Start Date, Partner Share, …), which Grandfather does not "
                + "read: give the Summary Sales Report of the same months (docs/Sales.md)"
        }
        return nil
    }

    /// Tab, semicolon or comma: the one the first line holds most of.
    private static func likelyDelimiter(_ line: ArraySlice<UInt8>) -> (UInt8, String) {
        let candidates: [(UInt8, String)] = [
            (UInt8(ascii: ","), "comma-separated"), (UInt8(ascii: "\t"), "tab-separated"),
            (UInt8(ascii: ";"), "semicolon-separated"),
        ]
        let counts = candidates.map { candidate in line.reduce(0) { $0 + ($1 == candidate.0 ? 1 : 0) } }
        let best = counts.indices.max { counts[$0] < counts[$1] } ?? 0
        return candidates[counts[best] > 0 ? best : 0]
    }

    /// The first few names, and how many more: a line of bounded length whatever the header.
    private static func listed(_ names: [String]) -> String {
        let shown = names.prefix(6).map { "'" + Excerpt.of($0) + "'" }
        let more = names.count > shown.count ? " and \(names.count - shown.count) more" : ""
        return shown.joined(separator: ", ") + more
    }

    /// Whether the bytes read as UTF-16 written without its byte order mark: text whose every
    /// other byte is NUL (ASCII in either byte order).
    private static func looksLikeUTF16WithoutByteOrderMark(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        let even = stride(from: 0, to: bytes.count - 1, by: 2).filter { bytes[$0] == 0 }.count
        let odd = stride(from: 1, to: bytes.count, by: 2).filter { bytes[$0] == 0 }.count
        let pairs = bytes.count / 2
        return max(even, odd) * 10 >= pairs * 9 && min(even, odd) * 10 <= pairs
    }
}
