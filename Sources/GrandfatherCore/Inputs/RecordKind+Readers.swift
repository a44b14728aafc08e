import GrandfatherEngine

/// The engine's readers set to read the canonical records of a kind (SPEC §2's fields).
extension CSVReader {
    /// Prepares to read a file whose header was already recognised as `kind`.
    init(header: [String], kind: RecordKind) {
        self.init(header: header, fieldNames: kind.fieldNames)
    }
}

extension JSONReader {
    /// Prepares to read records of `kind`.
    init(kind: RecordKind) {
        self.init(fieldNames: kind.fieldNames)
    }
}

extension InputFormat {
    /// How the format's records lie in a file's bytes: the canonical CSV and JSON Lines can
    /// be cut into ranges; every other format is read whole.
    var layout: RecordLayout {
        switch self {
        case .csv: .csv
        case .jsonLines: .lines
        default: .document
        }
    }
}
