import Crypto
import Foundation
import GrandfatherEngine

/// How a team's own export maps onto SPEC §2 (issue 52): per file, the columns that hold each
/// field, constants for fields the file does not hold (`platform: ios`), the spellings of
/// values, and the forms and zones of times. `grandfather map --suggest` drafts one; `--map`
/// reads the files it names through it.
///
/// ```json
/// {"format": "grandfather.mapping/1", "files": [{
///   "name": "purchases*.csv", "kind": "transactions",
///   "columns": {"customer_id": "user_id", "product_id": "sku", "purchase_date": "purchased_at", …},
///   "constants": {"environment": "production"},
///   "values": {"product_type": {"subscription": "auto_renewable", "lifetime": "non_consumable"}},
///   "times": {"purchase_date": {"form": "epoch_seconds"},
///             "expires_date": {"form": "yyyy-MM-dd HH:mm:ss", "zone": "Europe/Berlin"}}}]}
/// ```
public struct Mapping: Sendable, Equatable {
    static let format = "grandfather.mapping/1"

    /// A mapping is a few kilobytes; a larger file is refused before it is read.
    static let maximumSize = 1 << 20

    struct Time: Sendable, Equatable {
        var form: TimeForm
        /// The IANA zone of values that state none; `nil` when the form carries its own.
        var zone: String?
    }

    /// How one file, or every file its `name` or `header` picks, maps.
    struct File: Sendable, Equatable {
        /// A pattern on the file's name (`*` any run of characters, `?` one).
        var name: String?
        /// Columns the file's header (or first JSON object) holds, all of them.
        var header: [String]?
        var kind: RecordKind
        /// Field → the column holding it.
        var columns: [String: String] = [:]
        /// Field → the value every row takes.
        var constants: [String: String] = [:]
        /// Field → (a value as the file spells it → the canonical value).
        var values: [String: [String: String]] = [:]
        /// Field → how its instants are written; a time field not named is canonical.
        var times: [String: Time] = [:]
        /// What `--suggest` could not decide, each a sentence; a mapping is used only once none is left.
        var undecided: [String] = []
        /// In a draft: spellings it could not map (written with `null` targets) and required
        /// fields no column holds (written as `null` constants), where the answers go.
        var unknownSpellings: [String: [String]] = [:]
        var unknownConstants: [String] = []
    }

    var files: [File]
    /// The SHA-256 of the mapping's bytes, recorded beside the policy's.
    public internal(set) var digest = ""
    /// Where it was read from, for messages.
    public internal(set) var path = ""

    /// Reads and checks the mapping at `path` (`--map`).
    public static func load(path: String) throws(GrandfatherError) -> Mapping {
        try MappingLoader.load(path: path)
    }
}

extension Mapping {
    /// The mapping as JSON, keys sorted: what `map --suggest` writes.
    func json() -> String {
        let files = files.map { file -> [String: Any] in
            var object: [String: Any] = ["kind": file.kind.rawValue, "columns": file.columns]
            if let name = file.name { object["name"] = name }
            if let header = file.header { object["header"] = header }
            var constants: [String: Any] = file.constants
            for field in file.unknownConstants { constants[field] = NSNull() }
            if !constants.isEmpty { object["constants"] = constants }
            var values: [String: Any] = [:]
            for field in Set(file.values.keys).union(file.unknownSpellings.keys) {
                var spellings: [String: Any] = file.values[field] ?? [:]
                for text in file.unknownSpellings[field] ?? [] { spellings[text] = NSNull() }
                values[field] = spellings
            }
            if !values.isEmpty { object["values"] = values }
            if !file.times.isEmpty {
                object["times"] = file.times.mapValues { time -> [String: Any] in
                    var entry: [String: Any] = ["form": time.form.rawValue]
                    entry["zone"] = time.zone.map { $0 as Any } ?? NSNull()
                    return time.form.carriesZone ? ["form": time.form.rawValue] : entry
                }
            }
            if !file.undecided.isEmpty { object["undecided"] = file.undecided }
            return object
        }
        let document: [String: Any] = ["format": Self.format, "files": files]
        let data =
            (try? JSONSerialization.data(
                withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
