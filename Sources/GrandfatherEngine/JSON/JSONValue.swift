/// A JSON value that keeps what SPEC §8.3 needs: numbers as their literal text, and where
/// each value inside it stands in the file (for one-line errors and each row's line). The one
/// JSON tree every reader shares: the policy, a JWS's header and payload, every App Store
/// shape.
public enum JSONValue: Equatable, Sendable {
    case object([JSONMember])
    case array([JSONElement])
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

    /// The elements of an array, else `nil`.
    public var elements: [JSONElement]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The first member, in document order at any depth, whose key an earlier member of its
    /// object already has: which of the two a reader took would be a guess.
    public var firstRepeatedKey: JSONMember? {
        switch self {
        case .object(let members):
            let repeatedAt = JSONMember.firstRepeat(in: members[...])
            for index in members.indices {
                if index == repeatedAt { return members[index] }
                if let repeated = members[index].value.firstRepeatedKey { return repeated }
            }
            return nil
        case .array(let elements):
            for element in elements {
                if let repeated = element.value.firstRepeatedKey { return repeated }
            }
            return nil
        case .string, .number, .bool, .null:
            return nil
        }
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

/// One element of an array, with its position.
public struct JSONElement: Equatable, Sendable {
    public var value: JSONValue
    /// 1-based line and column where the element starts.
    public var line: Int
    public var column: Int
}

/// A JSON syntax error at a position.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
    /// The key of the innermost member whose value holds the error; `nil` outside any.
    public var key: String? = nil

    /// The message of a string that is not UTF-8.
    static let invalidUTF8 = "a string is not valid UTF-8"

    /// The reason a record this error breaks is rejected, at `place` (`column 24`): a string
    /// that is not UTF-8 is named by its member, in the words of the one text rule
    /// (`purchaseToken is not valid UTF-8`, as a CSV cell's would be); any other error is
    /// malformed JSON at its place.
    public func reason(at place: String) -> String {
        guard let named = namedEncodingProblem else { return "malformed JSON at \(place): \(message)" }
        return "\(named) (at \(place))"
    }

    /// `purchaseToken is not valid UTF-8`, for a string that is not UTF-8 in a member whose
    /// key is short plain ASCII (any other key would need quoting); else `nil`.
    public var namedEncodingProblem: String? {
        guard message == Self.invalidUTF8, let key, key.utf8.count <= 64,
            key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        return "\(key) \(TextBytes.Problem.invalidUTF8.complaint)"
    }
}

extension JSONMember {
    /// The place of the first of `members` (one object's) whose key an earlier one already
    /// has; `nil` when every key is its own. What the tree walk and the parser, as an object
    /// closes, both ask.
    static func firstRepeat(in members: ArraySlice<JSONMember>) -> Int? {
        guard members.count > 1 else { return nil }
        if members.count <= 16 {
            // A small object's keys compared pairwise: no set built for each of millions.
            for later in members.indices.dropFirst() {
                for earlier in members.startIndex..<later where members[earlier].key == members[later].key {
                    return later
                }
            }
            return nil
        }
        var keys = Set<String>(minimumCapacity: members.count)
        return members.indices.first { !keys.insert(members[$0].key).inserted }
    }
}
