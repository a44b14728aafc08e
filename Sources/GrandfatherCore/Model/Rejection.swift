/// An input row that was not accepted: data, never thrown (STYLE: two error channels).
public struct Rejection: Sendable, Equatable {
    /// The input path as given on the command line.
    public var file: String
    /// The line the record starts on (1-based; the header is line 1).
    public var line: Int
    /// The 1-based position of the offending field in the CSV header, when there is one.
    public var column: Int?
    /// The offending field's name, when there is one.
    public var field: String?
    /// Why the row was not accepted, one line.
    public var reason: String

    /// Creates a rejection.
    public init(file: String, line: Int, column: Int? = nil, field: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason
    }
}
