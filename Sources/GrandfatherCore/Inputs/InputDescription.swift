/// What a file is, decided by content (SPEC §8.1) before any row is read.
public struct InputDescription: Sendable, Equatable {
    /// The path as given.
    public var path: String
    public var format: InputFormat
    public var kind: RecordKind
    /// The size in bytes of what is read, when recognised: for a gzip-compressed file, what it
    /// inflates to (progress counts these bytes; reports give the size on disk).
    public var size: Int64 = 0
}
