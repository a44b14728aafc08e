import Foundation

/// The checks every text of a record passes (SPEC §8.5), for texts a source read itself.
public enum TextBytes {
    /// What is wrong with a text's bytes.
    public enum Problem: Sendable, Equatable {
        /// A NUL byte, which C tools, terminals and spreadsheets take for the end of the text.
        case nul
        case invalidUTF8

        /// The reason a row whose field `name` holds such text is rejected.
        public func reason(_ name: String) -> String {
            switch self {
            case .nul: return "\(name) contains a NUL byte"
            case .invalidUTF8: return "\(name) is not valid UTF-8"
            }
        }
    }

    /// Why `bytes` is not text a record may hold; `nil` when it is.
    public static func problem(_ bytes: Span<UInt8>) -> Problem? {
        bytes.withUnsafeBytes { problem($0) }
    }

    /// Why `text` is not text a record may hold (a Swift string is valid UTF-8, but may
    /// hold a NUL); `nil` when it is.
    public static func problem(_ text: String) -> Problem? {
        var text = text
        return text.withUTF8 { problem(UnsafeRawBufferPointer($0)) }
    }

    /// Why `bytes` is not text a record may hold; `nil` when it is.
    public static func problem(_ bytes: UnsafeRawBufferPointer) -> Problem? {
        if ASCII.isPlain(bytes) { return nil }
        if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil { return .nul }
        return String(validating: bytes, as: UTF8.self) == nil ? .invalidUTF8 : nil
    }
}

extension DecimalText {
    /// `canonical(_:_:)` over a span.
    public static func canonical<Result>(_ bytes: Span<UInt8>, _ body: (Span<UInt8>) -> Result) -> Result? {
        bytes.withUnsafeBytes { raw in
            canonical(raw) { body($0.assumingMemoryBound(to: UInt8.self).span) }
        }
    }
}
