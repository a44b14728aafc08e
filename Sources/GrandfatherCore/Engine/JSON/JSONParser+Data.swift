import Foundation

extension JSONParser {
    /// `parseDocument(_:start:trailing:)` over `data`'s bytes: how a policy file is read.
    static func parseDocument(_ data: Data, start: Int = 0, trailing: String) -> Result<JSONValue, JSONSyntaxError> {
        data.withUnsafeBytes { parseDocument($0, start: start, trailing: trailing) }
    }
}
