import GrandfatherEngine

extension JSONValue {
    /// A value of the tree with the line its rows are reported at: how a source walks nested
    /// rows (an App Store history's `signedTransactions[]`, a receipt's `in_app[]`) and names
    /// each at its own line. A view over the one tree, not a copy of it: a child's line is
    /// the position the parser recorded for it.
    ///
    /// A value decoded from inside another (a JWS payload) has no lines of its own in the
    /// file: `pinned` gives it and everything inside it the line of the text that carried it.
    struct Located: Sendable {
        var value: JSONValue
        var line: Int
        /// Whether everything inside takes `line` rather than its own position.
        private var pinned: Bool

        /// The value as parsed from a file, starting on `line`; its children keep their own lines.
        init(_ value: JSONValue, line: Int) {
            self.value = value
            self.line = line
            pinned = false
        }

        /// `value` and everything inside it at `line` (a JWS payload, at the line of the JWS).
        init(_ value: JSONValue, pinnedAt line: Int) {
            self.value = value
            self.line = line
            pinned = true
        }

        private func child(_ value: JSONValue, line: Int) -> Located {
            pinned ? Located(value, pinnedAt: self.line) : Located(value, line: line)
        }

        /// Whether the value is an object.
        var isObject: Bool { value.members != nil }

        /// The elements of an array, else `nil`: located as they are reached, not copied into
        /// a list of their own (one a record, for a record's one line item).
        var elements: LazyMapCollection<[JSONElement], Located>? {
            value.elements.map { elements in elements.lazy.map { child($0.value, line: $0.line) } }
        }

        /// The value of the first member named `key`; `nil` when absent or not an object.
        subscript(key: String) -> Located? {
            value.members?.first { $0.key == key }.map { child($0.value, line: $0.valueLine) }
        }

        /// The keys of an object, in order; empty for any other value.
        var keys: [String] { value.members?.map(\.key) ?? [] }

        /// A string's text, else `nil`.
        var string: String? {
            if case .string(let text) = value { return text }
            return nil
        }

        /// A scalar as text, tolerantly: a string as itself, a number as its literal text, a
        /// boolean as `true`/`false`; `nil` for null, an empty string, objects and arrays
        /// (absent is `nil`, never ""). verifyReceipt writes most numbers as strings and
        /// hand-edited files write them as numbers, so both must read alike.
        var text: String? {
            switch value {
            case .string(let text), .number(let text): return text.isEmpty ? nil : text
            case .bool(let flag): return flag ? "true" : "false"
            default: return nil
            }
        }

        /// The value's type with its article, for reasons: "an object", "a string", "null".
        var typeName: String {
            switch value {
            case .object: return "an object"
            case .array: return "an array"
            case .null: return "null"
            default: return "a " + value.typeName
            }
        }
    }
}
