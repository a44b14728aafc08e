import Foundation

/// A JSON text cut into its top-level parts, each kept as the exact text it was written as, so
/// that files rebuilt from the parts hold every value byte for byte (numbers stay their literal
/// text, signatures their base64). Enough for the bundled samples: well-formed JSON whose keys
/// hold no escapes.
enum JSONSlices {
    /// The elements of the array `text` holds, each as written.
    static func elements(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var index = skipSpace(bytes, 0)
        precondition(index < bytes.count && bytes[index] == UInt8(ascii: "["), "not a JSON array")
        index += 1
        var result: [String] = []
        while true {
            index = skipSpace(bytes, index)
            if bytes[index] == UInt8(ascii: "]") { return result }
            if bytes[index] == UInt8(ascii: ",") {
                index = skipSpace(bytes, index + 1)
            }
            let end = valueEnd(bytes, index)
            result.append(String(decoding: bytes[index..<end], as: UTF8.self))
            index = end
        }
    }

    /// The members of the object `text` holds: each key's name and its value as written.
    static func members(_ text: String) -> [(name: String, value: String)] {
        let bytes = Array(text.utf8)
        var index = skipSpace(bytes, 0)
        precondition(index < bytes.count && bytes[index] == UInt8(ascii: "{"), "not a JSON object")
        index += 1
        var result: [(name: String, value: String)] = []
        while true {
            index = skipSpace(bytes, index)
            if bytes[index] == UInt8(ascii: "}") { return result }
            if bytes[index] == UInt8(ascii: ",") {
                index = skipSpace(bytes, index + 1)
            }
            let keyEnd = valueEnd(bytes, index)
            let name = String(decoding: bytes[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            index = skipSpace(bytes, keyEnd)
            precondition(bytes[index] == UInt8(ascii: ":"), "no colon after \(name)")
            index = skipSpace(bytes, index + 1)
            let end = valueEnd(bytes, index)
            result.append((name, String(decoding: bytes[index..<end], as: UTF8.self)))
            index = end
        }
    }

    /// The value of the member `name` of the object `text`, as written.
    static func member(_ name: String, of text: String) -> String? {
        members(text).first { $0.name == name }?.value
    }

    /// The text of the string value of member `name`, for keys and ids without escapes.
    static func string(_ name: String, of text: String) -> String? {
        guard let value = member(name, of: text), value.hasPrefix("\"") else { return nil }
        return String(value.dropFirst().dropLast())
    }

    /// An object of `members`, each value as given.
    static func object(_ members: [(name: String, value: String)]) -> String {
        "{" + members.map { "\"\($0.name)\": \($0.value)" }.joined(separator: ", ") + "}"
    }

    /// An array of `elements`, one a line.
    static func array(_ elements: [String]) -> String {
        "[\n" + elements.joined(separator: ",\n") + "\n]\n"
    }

    /// `text`'s members with the value of `name` replaced by `value`.
    static func replacing(_ name: String, in text: String, with value: String) -> String {
        object(members(text).map { $0.name == name ? ($0.name, value) : $0 })
    }

    private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    /// Where the value starting at `start` ends (one past its last byte).
    private static func valueEnd(_ bytes: [UInt8], _ start: Int) -> Int {
        var index = start
        var depth = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return index }
                    depth -= 1
                    if depth == 0 { return index + 1 }
                case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                    if depth == 0 { return index }
                default: break
                }
            }
            index += 1
        }
        return index
    }
}
