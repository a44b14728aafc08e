/// How a file is written (SPEC §8.1), as reports and the snapshot name it.
///
/// Open rather than an enumeration: each source declares its own formats beside itself
/// (`InputFormat.appStore` lives with the App Store source), so adding a source adds a
/// format without touching this file. The canonical formats of SPEC §8.1 are here.
public struct InputFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Canonical CSV with a header row.
    public static let csv = InputFormat(rawValue: "csv")
    /// A JSON array of canonical objects.
    public static let jsonArray = InputFormat(rawValue: "json")
    /// JSON Lines: one canonical object a line.
    public static let jsonLines = InputFormat(rawValue: "jsonl")
}
