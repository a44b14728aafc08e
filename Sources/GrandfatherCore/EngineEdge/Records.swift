import GrandfatherEngine

/// Records read by the engine's readers (`CSVReader`, `UnquotedLineReader`, `JSONReader`)
/// into a `RowSink`, failing as the run fails.
enum Records {
    /// `CSVReader.readHeader`: the first record after the byte-order mark, `nil` when none.
    static func header(
        of source: ByteSource, delimiter: UInt8 = CSVReader.comma
    ) throws(GrandfatherError) -> [String]? {
        try EngineEdge.converting { () throws(EngineError) in
            try CSVReader.readHeader(source, dataStart: source.dataStart, delimiter: delimiter)
        }
    }

    /// `CSVReader.read`: every record of `range` into `sink`.
    static func read<Sink: RowSink>(
        _ source: ByteSource, with reader: CSVReader, range: Range<Int>, isFirst: Bool, into sink: inout Sink,
        meter: ProgressMeter? = nil
    ) throws(GrandfatherError) -> CSVReader.RangeSummary {
        try EngineEdge.converting { () throws(EngineError) in
            try reader.read(source, range: range, isFirst: isFirst, into: &sink, meter: meter)
        }
    }

    /// `UnquotedLineReader.read`: every record after the header into `sink`.
    static func read<Sink: RowSink>(
        _ source: ByteSource, with reader: UnquotedLineReader, into sink: inout Sink, meter: ProgressMeter? = nil
    ) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try reader.read(source, into: &sink, meter: meter) }
    }

    /// `JSONReader.readLines`: every JSON Lines record of `range` into `sink`.
    static func readLines<Sink: RowSink>(
        _ source: ByteSource, with reader: JSONReader, range: Range<Int>, into sink: inout Sink,
        meter: ProgressMeter? = nil
    ) throws(GrandfatherError) -> JSONReader.LinesSummary {
        try EngineEdge.converting { () throws(EngineError) in
            try reader.readLines(source, range: range, into: &sink, meter: meter)
        }
    }

    /// `JSONReader.readArray`: every element of a JSON array file into `sink`.
    static func readArray<Sink: RowSink>(
        _ source: ByteSource, with reader: JSONReader, into sink: inout Sink
    ) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try reader.readArray(source, into: &sink) }
    }
}
