/// What a file is, decided by content (SPEC §8.1) before any row is read.
public struct InputDescription: Sendable, Equatable {
    /// The path as given.
    public var path: String
    public var format: InputFormat
    public var kind: RecordKind
    /// The size in bytes when recognised.
    public var size: Int64 = 0
}
