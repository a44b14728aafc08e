// Transitional: the array entry that AppStore/AppStoreRecognizer.swift gains in the sources
// refactoring (`recognize(_ prefix: [UInt8])`, the same function). Where both meet, the
// compiler reports it twice: delete this file.

extension AppStoreRecognizer {
    /// `recognize(_:)` over a file's first bytes as read so far.
    static func recognize(_ prefix: [UInt8]) -> AppStoreRecognition? {
        prefix.withUnsafeBytes { recognize($0) }
    }
}
