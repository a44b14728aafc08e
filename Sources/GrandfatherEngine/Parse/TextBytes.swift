import Foundation

/// The one rule every id and text of a record passes, whatever source read it (SPEC §8.5):
/// canonical rows, the stores' files, claims, verdicts and responses alike. A text is
/// refused, never changed: it is at most `maximumBytes` bytes of valid UTF-8 (a lone
/// surrogate, from UTF-16 or a JSON `\ud800` escape, is not) and holds no control character
/// but the tab and line breaks a quoted CSV value may hold (SPEC §2: NUL, the other C0
/// controls, DEL and C1 are refused). An id also neither starts nor ends with a space no one
/// sees in a report: U+00A0 and the other Unicode spaces beyond ASCII, and the invisible
/// U+200B, U+2060 and U+FEFF, which a paste brings and which would make a second id that
/// looks like the first. ASCII spaces, tabs and line breaks are kept as given, even around an
/// id: values are never trimmed (SPEC §2), and every reader of the file sees them.
/// An empty text is absent (SPEC §2).
public enum TextBytes {
    /// What a text is to the rule.
    public enum Kind: Sendable {
        /// A name something is found by (a customer, transaction, product, order or app id, a
        /// token): an invisible or non-ASCII space at either end refuses it too.
        case identifier
        /// Any other text a record keeps (a version, a storefront, a currency).
        case value
    }

    /// A text longer than this is refused: no id, enum value, timestamp or price is anywhere
    /// near as long. Readers keep at most one byte more of any field, so that a huge field
    /// costs no memory and is still seen to be too long.
    public static let maximumBytes = 1 << 16

    /// What is wrong with a text's bytes.
    public enum Problem: Sendable, Equatable {
        /// Longer than `maximumBytes`.
        case overlong
        /// A NUL byte, which C tools, terminals and spreadsheets take for the end of the text.
        case nul
        case invalidUTF8
        /// A control character other than NUL, tab, LF and CR (C0, DEL or C1), given as its
        /// scalar value.
        case controlCharacter(UInt32)
        /// An invisible or non-ASCII space at the start or end, given as its scalar value.
        case surroundingSpace(UInt32)

        /// The reason a row whose field `name` holds such text is rejected: the one wording
        /// every source gives.
        public func reason(_ name: String) -> String {
            "\(name) \(complaint)"
        }

        /// The reason without the field's name (`is not valid UTF-8`).
        public var complaint: String {
            switch self {
            case .overlong: return "is longer than \(maximumBytes) bytes"
            case .nul: return "contains a NUL byte"
            case .invalidUTF8: return "is not valid UTF-8"
            case .controlCharacter(let scalar): return "contains a control character (\(Self.name(scalar)))"
            case .surroundingSpace(let scalar):
                return "begins or ends with white space (\(Self.name(scalar))); values are never trimmed"
            }
        }

        private static func name(_ scalar: UInt32) -> String {
            let hex = String(scalar, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }

    /// Why `bytes` is not a `kind` a record may hold; `nil` when it is.
    public static func problem(_ bytes: Span<UInt8>, as kind: Kind) -> Problem? {
        bytes.withUnsafeBytes { problem($0, as: kind) }
    }

    /// Why `text` is not a `kind` a record may hold (a Swift string is valid UTF-8, but may
    /// hold anything else the rule refuses); `nil` when it is.
    public static func problem(_ text: String, as kind: Kind) -> Problem? {
        var text = text
        return text.withUTF8 { problem(UnsafeRawBufferPointer($0), as: kind) }
    }

    /// Why a `kind` named `name` is refused, in the one wording; `nil` when it is kept.
    public static func reason(_ text: String, named name: String, as kind: Kind) -> String? {
        problem(text, as: kind)?.reason(name)
    }

    /// Why `bytes` is not a `kind` a record may hold; `nil` when it is.
    /// Inlined where it is asked (every field of every row): nearly every text is printable
    /// ASCII, which holds nothing the rule refuses, and is passed without a call.
    @inlinable
    public static func problem(_ bytes: UnsafeRawBufferPointer, as kind: Kind) -> Problem? {
        if bytes.count <= maximumBytes, ASCII.isPlain(bytes) { return nil }
        return problemBeyondPlainASCII(bytes, as: kind)
    }

    /// `problem(_:as:)` of a text that is not printable ASCII, or is too long.
    @usableFromInline
    static func problemBeyondPlainASCII(_ bytes: UnsafeRawBufferPointer, as kind: Kind) -> Problem? {
        if bytes.count > maximumBytes { return .overlong }
        if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil { return .nul }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .invalidUTF8 }
        for scalar in text.unicodeScalars where isControl(scalar) { return .controlCharacter(scalar.value) }
        guard kind == .identifier else { return nil }
        let scalars = text.unicodeScalars
        if let first = scalars.first, isSpace(first) { return .surroundingSpace(first.value) }
        if let last = scalars.last, isSpace(last) { return .surroundingSpace(last.value) }
        return nil
    }

    /// C0 controls but tab, LF and CR (which RFC 4180 lets a quoted value hold), DEL and C1.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0..<0x20, 0x7F...0x9F: return true
        default: return false
        }
    }

    /// Unicode's White_Space beyond ASCII, and the invisible spaces a paste brings that it
    /// leaves out.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value > 0x7F else { return false }
        return scalar.properties.isWhitespace || scalar.value == 0x200B || scalar.value == 0x2060
            || scalar.value == 0xFEFF
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
