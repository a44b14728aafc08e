import Foundation

/// The checks every text of a record passes (SPEC §8.5), for texts a source read itself.
enum TextBytes {
    /// What is wrong with a text's bytes.
    enum Problem: Sendable, Equatable {
        /// A NUL byte, which C tools, terminals and spreadsheets take for the end of the text.
        case nul
        case invalidUTF8
    }

    /// Why `bytes` is not text a record may hold; `nil` when it is.
    static func problem(_ bytes: Span<UInt8>) -> Problem? {
        bytes.withUnsafeBytes { raw in
            if ASCII.isPlain(raw) { return nil }
            if let base = raw.baseAddress, memchr(base, 0, raw.count) != nil { return .nul }
            return String(validating: raw, as: UTF8.self) == nil ? .invalidUTF8 : nil
        }
    }
}

extension DecimalText {
    /// `canonical(_:_:)` over a span.
    static func canonical<Result>(_ bytes: Span<UInt8>, _ body: (Span<UInt8>) -> Result) -> Result? {
        bytes.withUnsafeBytes { raw in
            canonical(raw) { body($0.assumingMemoryBound(to: UInt8.self).span) }
        }
    }
}
