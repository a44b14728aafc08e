import Crypto
import Foundation
import GrandfatherEngine

/// A small JSON document a run is configured by (the policy, a mapping): one object, its
/// problems reported at their place in the file, its bytes' digest recorded with the run.
enum SettingsDocument {
    /// The members of the document's one object; `noun` names it in errors (`policy`).
    static func members(_ data: Data, file: String, noun: String) throws(GrandfatherError) -> [JSONMember] {
        let parsed = JSONParser.parseDocument(
            data, start: data.starts(with: utf8BOM) ? utf8BOM.count : 0,
            trailing: "unexpected text after the \(noun) object")
        switch parsed {
        case .success(let root):
            guard let members = root.members else {
                throw .policy(
                    file: file, line: 1, column: 1, message: "a \(noun) is a JSON object, not \(root.typeName)")
            }
            return members
        case .failure(let error):
            throw .policy(file: file, line: error.line, column: error.column, message: error.message)
        }
    }

    /// The SHA-256 of the document's bytes, as lowercase hex.
    static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
