/// What one input file contributed: the accounting of SPEC §6 (read = accepted + rejected;
/// exact duplicates, superseded deliveries and sandbox rows are among the accepted).
public struct InputReport: Sendable, Equatable, Codable {
    /// The path as given on the command line.
    public var path: String
    public var format: InputFormat
    public var kind: RecordKind
    /// The file's size on disk: for a gzip-compressed file, the compressed size (what it
    /// inflates to is not reported), so that size and digest both describe the file as named.
    public var sizeBytes: Int64
    /// SHA-256 of the file's bytes as on disk (compressed, for a gzip file), hex.
    public var sha256: String
    public var rowsRead: Int
    public var rowsAccepted: Int
    public var rowsRejected: Int
    /// Accepted rows that repeat an earlier row exactly.
    public var exactDuplicates: Int
    /// Accepted rows from the sandbox.
    public var sandboxRows: Int
    /// Accepted rows that a later delivery of the same record replaced (SPEC §9
    /// Redeliveries), and that therefore take no part in the audit.
    public var superseded = 0

    enum CodingKeys: String, CodingKey {
        case path, format, kind, sha256
        case sizeBytes = "size_bytes"
        case rowsRead = "rows_read"
        case rowsAccepted = "rows_accepted"
        case rowsRejected = "rows_rejected"
        case exactDuplicates = "exact_duplicates"
        case sandboxRows = "sandbox_rows"
        case superseded = "superseded_rows"
    }
}
