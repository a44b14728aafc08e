import Foundation

/// The parser over bytes the caller owns (an array, `Data`): the buffer is lent for the call
/// only, so readers outside the engine never hold a pointer.
extension JSONParser {
    /// `parseDocument(_:start:trailing:)` over `data`'s bytes: how a policy file is read.
    public static func parseDocument(_ data: Data, start: Int = 0, trailing: String) -> Result<
        JSONValue, JSONSyntaxError
    > {
        data.withUnsafeBytes { parseDocument($0, start: start, trailing: trailing) }
    }

    /// `parseDocument(_:start:trailing:)` over an array: a JWS's decoded header or payload.
    public static func parseDocument(_ bytes: [UInt8], start: Int = 0, trailing: String) -> Result<
        JSONValue, JSONSyntaxError
    > {
        bytes.withUnsafeBytes { parseDocument($0, start: start, trailing: trailing) }
    }

    /// Calls `body` with a parser over `bytes` from `start`, which is on `line`: a reader that
    /// walks a file's values one by one (an App Store file's elements). Columns count from
    /// `lineStart` (by default `start`), so a value cut out of a file with the start of its
    /// first line is placed as in the whole file.
    public static func parsing<Result>(
        _ bytes: ArraySlice<UInt8>, line: Int = 1, start: Int = 0, lineStart: Int? = nil,
        _ body: (inout JSONParser) -> Result
    ) -> Result {
        bytes.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw, line: line, start: start, lineStart: lineStart)
            return body(&parser)
        }
    }

    public static func parsing<Result>(
        _ bytes: [UInt8], line: Int = 1, start: Int = 0, _ body: (inout JSONParser) -> Result
    ) -> Result {
        parsing(bytes[...], line: line, start: start, body)
    }
}
