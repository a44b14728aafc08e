/// Text of up to 24 bytes held in the value itself, longer text as a `String`.
///
/// A Swift string holds at most 15 bytes without allocating, and Apple's transaction ids
/// have 16 digits or more: a customer's latest auto-renewable transaction, replaced each
/// time a later renewal streams by, would cost an allocation and a free every time.
public struct CompactText: Sendable, Hashable {
    private enum Storage: Sendable {
        /// The bytes in order, then zeros; the first `count` of them are the text.
        case inline(UInt64, UInt64, UInt64, count: UInt8)
        case string(String)
    }

    private var storage: Storage

    static let inlineCapacity = 24

    public init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.inlineCapacity else {
            storage = .string(String(decoding: bytes, as: UTF8.self))
            return
        }
        // Words built in registers, as `CustomerIndex` builds its short ids.
        let (low, high) = bytes.paddedWords
        var third: UInt64 = 0
        if bytes.count > 16, let base = bytes.baseAddress {
            third = base.loadPadded(fromByteOffset: 16, count: bytes.count - 16)
        }
        storage = .inline(low, high, third, count: UInt8(bytes.count))
    }

    /// Calls `body` with the text's UTF-8 bytes.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .inline(let a, let b, let c, let count):
            let words = (a, b, c)
            return try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<Int(count)])) }
        case .string(var text):
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Byte equality: Unicode-equivalent spellings differ, as ids compare everywhere else.
    public static func == (lhs: CompactText, rhs: CompactText) -> Bool {
        if case .inline(let a, let b, let c, let count) = lhs.storage,
            case .inline(let d, let e, let f, let otherCount) = rhs.storage
        {
            return count == otherCount && a == d && b == e && c == f
        }
        return lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }

    /// Hashes the bytes, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: $0) }
    }

    /// Whether the text comes before `other` in code-point order (UTF-8 byte order).
    public func precedes(_ other: CompactText) -> Bool {
        withBytes { left in other.withBytes { right in left.lexicographicallyPrecedes(right) } }
    }

    public var string: String {
        switch storage {
        case .inline: return withBytes { String(decoding: $0, as: UTF8.self) }
        case .string(let text): return text
        }
    }
}
