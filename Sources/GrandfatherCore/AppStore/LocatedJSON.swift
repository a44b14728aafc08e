/// A JSON value with the 1-based line it starts on, and so for every value inside it: App
/// Store files nest the rows (a history response's `signedTransactions[]`, a receipt's
/// `in_app[]`), and each row is reported at its own line.
struct LocatedJSON: Sendable {
    /// One `"key": value` of an object.
    struct Member: Sendable {
        var key: String
        var value: LocatedJSON
    }

    /// What the value is.
    enum Node: Sendable {
        case object([Member])
        case array([LocatedJSON])
        /// A string, number, boolean or null (never an object or array).
        case scalar(JSONValue)
    }

    var line: Int
    var node: Node

    /// Gives `value` and everything inside it the same line (a JWS payload, whose rows are
    /// reported at the line of the JWS).
    init(_ value: JSONValue, line: Int) {
        self.line = line
        switch value {
        case .object(let members):
            node = .object(members.map { Member(key: $0.key, value: LocatedJSON($0.value, line: line)) })
        case .array(let elements): node = .array(elements.map { LocatedJSON($0, line: line) })
        default: node = .scalar(value)
        }
    }

    init(line: Int, node: Node) {
        self.line = line
        self.node = node
    }

    /// The members of an object, else `nil`.
    var members: [Member]? {
        if case .object(let members) = node { return members }
        return nil
    }

    /// The elements of an array, else `nil`.
    var elements: [LocatedJSON]? {
        if case .array(let elements) = node { return elements }
        return nil
    }

    /// The value of the first member named `key`; `nil` when absent or not an object.
    subscript(key: String) -> LocatedJSON? {
        members?.first { $0.key == key }?.value
    }

    /// The keys of an object, in order; empty for any other value.
    var keys: [String] { members?.map(\.key) ?? [] }

    /// A string's text, else `nil`.
    var string: String? {
        if case .scalar(.string(let text)) = node { return text }
        return nil
    }

    /// A scalar as text, tolerantly: a string as itself, a number as its literal text, a
    /// boolean as `true`/`false`; `nil` for null, an empty string, objects and arrays (absent
    /// is `nil`, never ""). verifyReceipt writes most numbers as strings and hand-edited files
    /// write them as numbers, so both must read alike.
    var text: String? {
        switch node {
        case .scalar(.string(let text)), .scalar(.number(let text)): return text.isEmpty ? nil : text
        case .scalar(.bool(let flag)): return flag ? "true" : "false"
        default: return nil
        }
    }

    /// The value with objects and arrays emptied: enough to tell types and read scalars.
    var shallow: JSONValue {
        switch node {
        case .object: return .object([])
        case .array: return .array([])
        case .scalar(let value): return value
        }
    }

    /// The value's type with its article, for reasons: "an object", "a string", "null".
    var typeName: String {
        switch node {
        case .object: return "an object"
        case .array: return "an array"
        case .scalar(.null): return "null"
        case .scalar(let value): return "a " + value.typeName
        }
    }
}

extension JSONParser {
    /// Parses one value, recording the line every value inside it starts on.
    mutating func parseLocatedValue(depth: Int = 0) throws(JSONSyntaxError) -> LocatedJSON {
        skipWhitespace()
        let line = self.line
        switch current {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
            _ = consume(UInt8(ascii: "{"))
            var members: [LocatedJSON.Member] = []
            if consume(UInt8(ascii: "}")) { return LocatedJSON(line: line, node: .object(members)) }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try parseString()
                guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after key") }
                members.append(LocatedJSON.Member(key: key, value: try parseLocatedValue(depth: depth + 1)))
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "}")) { return LocatedJSON(line: line, node: .object(members)) }
                throw error("expected ',' or '}' in object")
            }
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
            _ = consume(UInt8(ascii: "["))
            var elements: [LocatedJSON] = []
            if consume(UInt8(ascii: "]")) { return LocatedJSON(line: line, node: .array(elements)) }
            while true {
                elements.append(try parseLocatedValue(depth: depth + 1))
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "]")) { return LocatedJSON(line: line, node: .array(elements)) }
                throw error("expected ',' or ']' in array")
            }
        default:
            return LocatedJSON(line: line, node: .scalar(try parseValue(depth: depth)))
        }
    }
}
