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

    /// Streams each file (`JSONDocuments.stream`) and folds its verdicts as they come
    /// (`LicensingRules.Fold`): memory holds a piece of a file and a few facts per customer,
    /// whatever the files' size. An exact duplicate (same customer, instant and answer) is told
    /// by a 64-bit fingerprint, as transactions' are (docs/Decisions.md gives the odds).
    static func read(_ inputs: [RecognizedInput], into stream: RecordStream) throws(GrandfatherError) -> SourceOutcome {
        var outcome = SourceOutcome()
        var fold = LicensingRules.Fold(cutover: stream.settings.policy.cutover.date)
        var seen: Set<UInt64> = []
        for input in inputs {
            let path = input.description.path
            var rejections: [Rejection] = []
            var duplicates = 0
            var rows = 0
            let sales = stream.settings.policy.sales
            // Each verdict read alone (`map`); filed, told apart and folded in the file's order.
            let source = try JSONDocuments.stream(
                at: path, what: "licensing verdicts",
                map: { unit -> Result<LicensingRules.Verdict, Rejected> in
                    switch unit {
                    case .rejected(let line, let reason): return .failure(Rejected(line: line, reason: reason))
                    case .element(let body):
                        return LicensingVerdict.read(body, sales: sales).mapError {
                            Rejected(line: body.line, reason: $0.reason)
                        }
                    }
                }
            ) { read in
                rows += 1
                switch read {
                case .failure(let rejected):
                    rejections.append(Rejection(file: path, line: rejected.line, reason: rejected.reason))
                case .success(var verdict):
                    verdict.customerID = stream.normalizer.customerID(verdict.customerID)
                    var key = StableHash()
                    key.combine(verdict.customerID)
                    key.combine(verdict.at)
                    key.combine(verdict.licensed ? 1 : 0)
                    if seen.insert(key.value).inserted { fold.add(verdict) } else { duplicates += 1 }
                }
            }
            stream.meter?.advance(bytes: source.size, rows: rows)
            let report = InputReport(
                path: path, format: .playLicensing, kind: .evidence, sizeBytes: Int64(source.storedSize),
                sha256: try InputFile.sha256(of: source), rowsRead: rows,
                rowsAccepted: rows - rejections.count, rowsRejected: rejections.count,
                exactDuplicates: duplicates, sandboxRows: 0)
            outcome.files.append((report, rejections))
        }
        if !fold.isEmpty { _ = stream.ledger.add(fold.customers) }
        return outcome
    }

    /// A verdict that could not be read, and why.
    private struct Rejected: Error {
        var line: Int
        var reason: String
    }
}
