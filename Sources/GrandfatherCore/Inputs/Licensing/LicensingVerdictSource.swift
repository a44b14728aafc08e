import GrandfatherEngine

extension InputFormat {
    /// Google Play licensing verdicts a team's server stored (JSON Lines or a JSON array).
    public static let playLicensing = InputFormat(rawValue: "play-licensing")
}

/// Google Play licensing verdicts a team's server stored, each beside the customer's account
/// id (`LicensingVerdict`). Every verdict of the run is weighed together (`LicensingRules`):
/// one record per customer reaches the ledger once every file is read.
enum LicensingVerdictSource: InputSource {
    static func recognize(_ file: inout FilePeek) throws(GrandfatherError) -> RecognizedInput? {
        guard let object = try file.firstJSONRecord(), LicensingVerdict.recognizes(keys: object.keys) else {
            return nil
        }
        return RecognizedInput(
            description: file.describe(format: .playLicensing, kind: .evidence), source: Self.self, detail: ())
    }

    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        var verdicts: [LicensingRules.Verdict] = []
        var seen: Set<[String]> = []
        for input in inputs {
            let path = input.description.path
            let (source, units) = try JSONDocuments.read(at: path, what: "licensing verdicts")
            var rejections: [Rejection] = []
            var duplicates = 0
            for unit in units {
                switch unit {
                case .rejected(let line, let reason):
                    rejections.append(Rejection(file: path, line: line, reason: reason))
                case .element(let body):
                    switch LicensingVerdict.read(body, sales: stream.settings.policy.sales) {
                    case .failure(let problem):
                        rejections.append(Rejection(file: path, line: body.line, reason: problem.reason))
                    case .success(var verdict):
                        verdict.customerID = stream.normalizer.customerID(verdict.customerID)
                        let key = [verdict.customerID, verdict.at.iso8601, verdict.licensed ? "1" : "0"]
                        if seen.insert(key).inserted { verdicts.append(verdict) } else { duplicates += 1 }
                    }
                }
            }
            let report = InputReport(
                path: path, format: .playLicensing, kind: .evidence, sizeBytes: Int64(source.storedSize),
                sha256: try engineWork { try source.sha256() }, rowsRead: units.count,
                rowsAccepted: units.count - rejections.count, rowsRejected: rejections.count,
                exactDuplicates: duplicates, sandboxRows: 0)
            outcome.files.append((report, rejections))
        }
        if !verdicts.isEmpty {
            _ = stream.ledger.add(
                LicensingRules.customers(from: verdicts, cutover: stream.settings.policy.cutover.date))
        }
        return outcome
    }
}
