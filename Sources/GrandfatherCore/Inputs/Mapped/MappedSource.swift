import GrandfatherEngine

extension InputFormat {
    /// A team's own CSV, read through a mapping (`--map`).
    public static let mappedCSV = InputFormat(rawValue: "mapped-csv")
    /// A team's own JSON Lines, read through a mapping.
    public static let mappedJSONLines = InputFormat(rawValue: "mapped-jsonl")
    /// A team's own JSON array, read through a mapping.
    public static let mappedJSONArray = InputFormat(rawValue: "mapped-json")
}

/// A team's own export, read through the mapping `--map` gives (issue 52): a file its name
/// pattern and header pick is read as its entry says, each row rewritten into SPEC §2's fields
/// (`MappedRowTranslator`) and handed to the kit's sink as a canonical row. Registered first:
/// a file the mapping names is read through it, whatever else it looks like.
enum MappedSource: InputSource {
    struct Detail: Sendable {
        var mapping: Mapping
        var index: Int
        /// The columns the rows are read by: a CSV file's header, or the keys the entry maps.
        var columns: [String]
        var layout: InputFormat
    }

    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let mapping = file.mapping else { return nil }
        let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
        // Only a file some entry's name could pick is opened for its columns.
        let named = mapping.files.indices.filter { mapping.files[$0].name.map { Self.matches(name, $0) } ?? true }
        guard !named.isEmpty else { return nil }
        let layout = CanonicalRecognition.format(startingWith: file.firstNonBlank)
        var keys: [String]?
        if layout == .csv {
            keys = try Records.header(of: file.source)
        } else {
            var (found, _) = JSONReader.firstObjectKeys(file.prefix, layout: layout.layout)
            while found == nil, file.prefix.count < JSONDocuments.maximumPeek, try file.readMore() {
                (found, _) = JSONReader.firstObjectKeys(file.prefix, layout: layout.layout)
            }
            keys = found
        }
        guard let keys else { return nil }
        for index in named {
            let entry = mapping.files[index]
            if let header = entry.header, let missing = header.first(where: { !keys.contains($0) }) {
                // Picked by its name, the file must hold the columns the entry reads.
                guard entry.name == nil else {
                    throw .usage("\(mapping.path): files[\(index)].header: \(file.path) has no column \"\(missing)\"")
                }
                continue
            }
            let columns = layout == .csv ? keys : Array(Set(entry.columns.values)).sorted()
            let format: InputFormat =
                layout == .csv ? .mappedCSV : layout == .jsonLines ? .mappedJSONLines : .mappedJSONArray
            return RecognizedInput(
                description: file.describe(format: format, kind: entry.kind), source: Self.self,
                detail: Detail(mapping: mapping, index: index, columns: columns, layout: layout))
        }
        return nil
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        for input in inputs {
            guard let detail = input.detail as? Detail else {
                throw .internal("\(input.description.path): a mapped file without its mapping")
            }
            let path = input.description.path
            let kind = input.description.kind
            let source = try InputFile.open(path)
            let digest = try InputFile.sha256(of: source)
            let translator = try MappedRowTranslator(
                detail.mapping.files[detail.index], at: detail.index, of: detail.mapping, columns: detail.columns,
                path: path)
            var sink = Sink(
                translator: translator, builder: RowBuilder(fieldCount: translator.fields.count),
                inner: stream.sink(file: path, kind: kind, customerSource: .customersFile))
            switch detail.layout {
            case .csv:
                _ = try Records.read(
                    source, with: CSVReader(header: detail.columns, fieldNames: detail.columns),
                    range: source.dataStart..<source.size, isFirst: true, into: &sink, meter: stream.meter)
            case .jsonLines:
                _ = try Records.readLines(
                    source, with: JSONReader(fieldNames: detail.columns), range: source.dataStart..<source.size,
                    into: &sink, meter: stream.meter)
            default:
                try Records.readArray(source, with: JSONReader(fieldNames: detail.columns), into: &sink)
            }
            sink.inner.flush()
            let report = InputReport(
                path: path, format: input.description.format, kind: kind, sizeBytes: Int64(source.storedSize),
                sha256: digest, rowsRead: sink.inner.rowsRead, rowsAccepted: sink.inner.rowsAccepted,
                rowsRejected: sink.inner.rejections.count, exactDuplicates: sink.inner.exactDuplicates,
                sandboxRows: sink.inner.sandboxRows)
            outcome.files.append((report, sink.inner.rejections))
            outcome.findings.handOn(ClaimedOrders(claims: sink.inner.claims))
        }
        return outcome
    }

    /// Whether `name` matches `pattern`: `*` any run of characters, `?` one, the rest itself.
    static func matches(_ name: String, _ pattern: String) -> Bool {
        let name = Array(name)
        let pattern = Array(pattern)
        // Iterative wildcard matching: the last `*` seen, and where the name stood then.
        var (n, p, star, mark) = (0, 0, -1, 0)
        while n < name.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == name[n] {
                n += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = n
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                n = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Rewrites each row through the mapping and hands it on as a canonical row.
    private struct Sink: RowSink {
        let translator: MappedRowTranslator
        let builder: RowBuilder
        var inner: IngestSink

        mutating func accept(_ row: RawRow) {
            // The one rule judges each mapped column's bytes before any is read as text: text
            // repairs invalid UTF-8, and the repaired value would pass on as if given.
            for field in translator.fields {
                guard case .column(let place) = field.origin, let problem = row.problem(place, as: .value) else {
                    continue
                }
                return inner.reject(
                    line: row.line, column: place + 1, field: field.name, reason: problem.reason(field.name))
            }
            switch translator.translate({ row.text($0) }) {
            case .failure(let rejection):
                inner.reject(line: row.line, column: rejection.column, field: rejection.field, reason: rejection.reason)
            case .success(let texts):
                builder.deliver(texts, columns: translator.columns, line: row.line, to: &inner)
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            inner.reject(line: line, column: column, field: field, reason: reason)
        }
    }
}
