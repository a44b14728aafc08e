/// A JSON value that keeps what SPEC §8.3 needs: numbers as their literal text, and
/// where each object member stands in the file (for one-line errors).
public indirect enum JSONValue: Equatable, Sendable {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    /// The number exactly as written (`2.0` stays "2.0", `4.990` stays "4.990").
    case number(String)
    case bool(Bool)
    case null

    /// A short name of the value's type, for messages.
    public var typeName: String {
        switch self {
        case .object: return "object"
        case .array: return "array"
        case .string: return "string"
        case .number: return "number"
        case .bool: return "boolean"
        case .null: return "null"
        }
    }

    /// The members of an object, else `nil`.
    public var members: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

/// One `"key": value` of an object, with the position of its key.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue
    /// 1-based line and column of the key's opening quote.
    public var line: Int
    public var column: Int
    /// 1-based line and column where the value starts.
    public var valueLine: Int
    public var valueColumn: Int
}

/// A JSON syntax error at a position.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
}
