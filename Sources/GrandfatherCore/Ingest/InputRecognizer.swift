/// Decides a file's format and record kind from its content, not its name (SPEC §8.1).
enum InputRecognizer {
    /// How much of a JSON file recognition reads, at most, to find the first object.
    static let maximumPeek = 16 << 20

    /// Recognises `path`; for CSV also returns the header.
    static func recognize(path: String) throws(GrandfatherError) -> (InputDescription, header: [String]?) {
        let source = try ByteSource(path: path)
        var prefix: [UInt8] = []
        var chunk: [UInt8] = []
        var format: InputFormat?
        var offset = source.dataStart
        while format == nil, case let count = try source.read(at: offset, count: ByteSource.chunkSize, into: &chunk),
            count > 0
        {
            prefix.append(contentsOf: chunk[0..<count])
            offset += count
            format = decideFormat(prefix)
        }
        guard let format else {
            throw .input(file: path, line: nil, message: "empty file: no header or record to recognise")
        }
        // App Store shapes are told apart before the canonical ones: a file of JWS strings
        // is not CSV, and a certificate is not records at all.
        switch prefix.withUnsafeBytes({ AppStoreRecognizer.recognize($0) }) {
        case .appStore(let shape):
            var description = InputDescription(
                path: path, format: .appStore, kind: .transactions, size: Int64(source.size))
            description.appStoreShape = shape
            return (description, nil)
        case .notRecords(let what):
            throw .input(file: path, line: nil, message: what)
        case nil:
            break
        }
        let names: [String]
        var header: [String]?
        switch format {
        case .csv:
            guard let found = try CSVReader.readHeader(source, dataStart: source.dataStart) else {
                throw .input(file: path, line: 1, message: "no CSV header")
            }
            header = found
            names = found
        case .appStore:
            throw .internal("an App Store shape reached the canonical recognition")
        case .jsonArray, .jsonLines:
            var (keys, problem) = firstObjectKeys(prefix, format: format)
            while keys == nil, prefix.count < maximumPeek,
                case let count = try source.read(at: offset, count: ByteSource.chunkSize, into: &chunk), count > 0
            {
                prefix.append(contentsOf: chunk[0..<count])
                offset += count
                (keys, problem) = firstObjectKeys(prefix, format: format)
            }
            guard let keys else {
                if format == .jsonLines, let problem, Self.lineEndsInside(prefix, problem) {
                    throw .input(
                        file: path, line: problem.line,
                        message:
                            "the first JSON object does not end on its line: an object spread over several lines is neither JSON Lines (one object a line) nor a JSON array; write one object a line, or wrap the objects in [ ]"
                    )
                }
                let detail = problem.map { ": malformed JSON at \($0.line):\($0.column): \($0.message)" }
                throw .input(
                    file: path, line: nil, message: "no JSON object to recognise the record kind from" + (detail ?? ""))
            }
            names = keys
        }
        guard let kind = RecordKind.recognize(fieldNames: names) else {
            throw .input(
                file: path, line: 1,
                message: "cannot tell customers from transactions: the fields match both or neither equally")
        }
        if let header { try checkHeader(header, kind: kind, path: path) }
        return (InputDescription(path: path, format: format, kind: kind, size: Int64(source.size)), header)
    }

    /// Whether the syntax error lies past the last non-blank byte of its line: the object was
    /// cut by its line's end, as a pretty-printed object is.
    private static func lineEndsInside(_ bytes: [UInt8], _ problem: JSONSyntaxError) -> Bool {
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

    /// The first object's keys, or the syntax error that stopped reading it (more bytes may
    /// cure an error at the end of `prefix`).
    private static func firstObjectKeys(
        _ prefix: [UInt8], format: InputFormat
    ) -> (keys: [String]?, problem: JSONSyntaxError?) {
        prefix.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                return (try JSONReader.firstObjectKeys(raw, format: format), nil)
            } catch {
                return (nil, error)
            }
        }
    }

    /// `[` is a JSON array, `{` JSON Lines, anything else CSV; `nil` while only blanks were seen.
    private static func decideFormat(_ prefix: [UInt8]) -> InputFormat? {
        for byte in prefix {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "["): return .jsonArray
            case UInt8(ascii: "{"): return .jsonLines
            default: return .csv
            }
        }
        return nil
    }

    /// A CSV header must name each column once and carry every required field of its kind.
    private static func checkHeader(_ header: [String], kind: RecordKind, path: String) throws(GrandfatherError) {
        var seen = Set<String>()
        for name in header where !name.isEmpty && !seen.insert(name).inserted {
            throw .input(file: path, line: 1, message: "column \"\(Excerpt.of(name))\" appears twice in the header")
        }
        let required: [String]
        switch kind {
        case .customers: required = [CustomerField.customerID, .platform].map(\.name)
        case .transactions:
            required = [TransactionField.transactionID, .customerID, .productID, .productType, .purchaseDate].map(
                \.name)
        }
        for name in required where !seen.contains(name) {
            throw .input(file: path, line: 1, message: "\(kind.rawValue) header lacks required column \"\(name)\"")
        }
    }
}
