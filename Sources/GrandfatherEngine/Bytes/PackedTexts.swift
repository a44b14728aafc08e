/// A few short texts, some absent, packed back to back in one allocation that never changes,
/// read through plain pointers: every core reads them at once, per customer, and reading a
/// string or an array would retain and release it each time, two cores contending for one
/// counter. The storage is freed with the last copy.
public struct PackedTexts: @unchecked Sendable {
    /// Where text `index` lies, count -1 for an absent one.
    private let spans: UnsafePointer<(start: Int, count: Int)>
    private let bytes: UnsafePointer<UInt8>
    /// Owns the two allocations; read only to keep them alive.
    private let storage: Storage

    public init(_ texts: [String?]) {
        storage = Storage(texts)
        spans = UnsafePointer(storage.spans)
        bytes = UnsafePointer(storage.bytes)
    }

    /// Whether text `index` is present.
    public func contains(_ index: Int) -> Bool {
        spans[index].count >= 0
    }

    /// Calls `body` with the bytes of text `index`; `nil` when it is absent.
    public func withText<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let span = spans[index]
        guard span.count >= 0 else { return nil }
        return body(UnsafeBufferPointer(start: bytes + span.start, count: span.count))
    }

    private final class Storage {
        let spans: UnsafeMutablePointer<(start: Int, count: Int)>
        let bytes: UnsafeMutablePointer<UInt8>

        init(_ texts: [String?]) {
            spans = .allocate(capacity: max(texts.count, 1))
            let all = texts.flatMap { Array(($0 ?? "").utf8) }
            bytes = .allocate(capacity: max(all.count, 1))
            bytes.initialize(from: all, count: all.count)
            var start = 0
            for (index, text) in texts.enumerated() {
                let count = text?.utf8.count ?? 0
                (spans + index).initialize(to: (start, text == nil ? -1 : count))
                start += count
            }
        }

        deinit {
            spans.deallocate()
            bytes.deallocate()
        }
    }
}
