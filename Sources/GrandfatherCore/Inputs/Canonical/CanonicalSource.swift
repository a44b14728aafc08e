import Dispatch
import GrandfatherEngine

/// Canonical CSV, JSON arrays and JSON Lines: SPEC §2's fields by name, one record a row
/// (SPEC §8.1). It claims any file no earlier source did, so it is registered last.
enum CanonicalSource: InputSource {
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        let format = CanonicalRecognition.format(startingWith: file.firstNonBlank)
        let header: [String]?
        let names: [String]
        if format == .csv {
            guard
                let found = try Records.header(of: file.source)
            else {
                throw .input(file: file.path, line: 1, message: "no CSV header")
            }
            header = found
            names = found
        } else {
            header = nil
            guard let keys = try firstObjectKeys(&file, format: format) else { return nil }
            names = keys
        }
        // Fields that match both kinds equally, or neither: not a canonical file; the recogniser
        // says what the file looks like instead.
        guard let kind = RecordKind.recognize(fieldNames: names) else { return nil }
        if let header { try CanonicalRecognition.checkHeader(header, kind: kind, path: file.path) }
        return RecognizedInput(
            description: file.describe(format: format, kind: kind), source: Self.self, detail: header)
    }

    /// The keys of the first JSON object, reading more of the file while a syntax error at
    /// the end of what was read may be cured by the rest; `nil` for a document spread over
    /// lines whose keys are not a canonical record's (no reader takes it).
    private static func firstObjectKeys(
        _ file: inout FilePeek, format: InputFormat
    ) throws(GrandfatherError) -> [String]? {
        var (keys, problem) = JSONReader.firstObjectKeys(file.prefix, layout: format.layout)
        while keys == nil, file.prefix.count < JSONDocuments.maximumPeek, try file.readMore() {
            (keys, problem) = JSONReader.firstObjectKeys(file.prefix, layout: format.layout)
        }
        if let keys { return keys }
        if format == .jsonLines, let problem, CanonicalRecognition.lineEndsInside(file.prefix, problem) {
            // Spread over lines: a canonical record written so is told how to write it; any other
            // document is no canonical file at all.
            guard let document = try file.firstJSONRecord(), RecordKind.recognize(fieldNames: document.keys) != nil
            else { return nil }
            throw .input(
                file: file.path, line: problem.line,
                message:
                    "the first JSON object does not end on its line: an object spread over several lines is neither JSON Lines (one object a line) nor a JSON array; write one object a line, or wrap the objects in [ ]"
            )
        }
        let detail = problem.map { ": malformed JSON at \($0.line):\($0.column): \($0.message)" }
        throw .input(
            file: file.path, line: nil, message: "no JSON object to recognise the record kind from" + (detail ?? ""))
    }

    /// Reads the canonical files in input order: customer files in order on a thread of their
    /// own (whether a repeated customer row is accepted depends on order, so each is read as
    /// one range), while the transaction files are read on every core, so reading customers
    /// leaves no core idle. The ledger is shared and folding is commutative, so nothing else
    /// changes.
    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        let results = ResultSlots<(InputReport, [Rejection], claims: [ClaimedOrderRules.Claim]), GrandfatherError>(
            count: inputs.count)
        // Reads the files at `indices` in order, stopping at the first that fails.
        let readFiles = { @Sendable (indices: [Int]) in
            for index in indices {
                let result = Result { () throws(GrandfatherError) in
                    try FileIngest.read(
                        inputs[index].description, header: inputs[index].detail as? [String],
                        normalizer: stream.normalizer, ledger: stream.ledger, options: stream.options,
                        meter: stream.meter, log: stream.recordLog)
                }
                results.store(index, result)
                if case .failure = result { break }
            }
        }
        let customersRead = DispatchGroup()
        DispatchQueue.global().async(group: customersRead) {
            readFiles(inputs.indices.filter { inputs[$0].description.kind == .customers })
        }
        readFiles(inputs.indices.filter { inputs[$0].description.kind != .customers })
        customersRead.wait()

        var outcome = SourceOutcome()
        // In input order, so that the first file that failed is the one reported.
        for index in inputs.indices {
            let (report, rejections, claims) = try results.take(index)
            outcome.files.append((report, rejections))
            outcome.findings.handOn(ClaimedOrders(claims: claims))
        }
        return outcome
    }
}
