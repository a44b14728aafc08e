import GrandfatherEngine

/// Rows kept in unlinked temporary files (`RowSpill`, `RecordLog`), failing as the run fails.
enum Spills {
    /// `RowSpill(fieldCount:for:)`: an empty spill for rows of the input at `path`.
    static func make(fieldCount: Int, for path: String) throws(GrandfatherError) -> RowSpill {
        try EngineEdge.converting { () throws(EngineError) in try RowSpill(fieldCount: fieldCount, for: path) }
    }

    /// `RowSpill.Writer.end()`: the record begun last ended and queued.
    static func end(_ writer: RowSpill.Writer) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try writer.end() }
    }

    /// `RowSpill.Writer.flush()`: the queued records written.
    static func flush(_ writer: RowSpill.Writer) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try writer.flush() }
    }

    /// `RowSpill.read`: every record back, in the order written; the row is valid only
    /// during the call to `body`.
    static func read(
        _ spill: RowSpill, lineOffset: Int = 0, _ body: (_ row: RawRow, _ key: Int, _ version: Int64) -> Void
    ) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try spill.read(lineOffset: lineOffset, body) }
    }

    /// `RecordLog.writeParts`: every segment written, in order, as the parts `name(1)`, … .
    static func writeParts(of log: RecordLog, named name: (Int) -> String) throws(GrandfatherError) -> [String] {
        try EngineEdge.converting { () throws(EngineError) in try log.writeParts(named: name) }
    }
}
