/// Receives the records of one file from a reader, in file order.
public protocol RowSink {
    /// A record whose known fields are in `row`.
    mutating func accept(_ row: RawRow)
    /// A record that could not even be read as fields (wrong field count, bad JSON…).
    mutating func reject(line: Int, column: Int?, field: String?, reason: String)
}
