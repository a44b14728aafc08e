/// Integers kept as one field of a spilled record, 8 bytes each, little-endian: how a source
/// keeps a typed record's scalars (instants, enums, flags) in a `RowSpill` beside its texts,
/// so that nothing is written as text to be parsed again.
public struct SpilledWords: Sendable {
    static let capacity = 8
    private var storage: InlineArray<8, Int64> = .init(repeating: 0)
    private(set) var count = 0

    public init() {}

    public mutating func append(_ word: Int64) {
        precondition(count < Self.capacity, "a spilled record holds at most \(Self.capacity) words")
        storage[count] = word
        count += 1
    }

    public subscript(index: Int) -> Int64 {
        precondition(index < count, "word \(index) of \(count)")
        return storage[index]
    }
}

extension RowSpill.Writer {
    /// Sets `field` to `words`.
    public func set(_ field: Int, words: SpilledWords) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8 * SpilledWords.capacity) { buffer in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for index in 0..<words.count {
                raw.storeBytes(of: words[index].littleEndian, toByteOffset: 8 * index, as: Int64.self)
            }
            set(
                field,
                bytes: UnsafeRawBufferPointer(rebasing: raw[0..<(8 * words.count)]).assumingMemoryBound(to: UInt8.self)
                    .span)
        }
    }
}

extension RawRow {
    /// The words a field holds, as `RowSpill.Writer.set(_:words:)` wrote them.
    public func words(_ field: Int) -> SpilledWords {
        var words = SpilledWords()
        let raw = bytes(field)
        for index in 0..<min(raw.count / 8, SpilledWords.capacity) {
            words.append(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * index, as: Int64.self)))
        }
        return words
    }
}
