/// How records lie in a file's bytes, which says where a file can be cut into ranges that
/// parse apart.
public enum RecordLayout: Sendable, Equatable {
    /// CSV: a record ends at a line break outside quotes, so cuts follow the quotes from the
    /// start.
    case csv
    /// One record a line (JSON Lines): any line break ends a record.
    case lines
    /// One document (a JSON array): streamed in one range, never cut.
    case document
}
