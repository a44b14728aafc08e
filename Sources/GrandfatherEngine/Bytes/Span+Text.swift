extension Span where Element == UInt8 {
    /// The bytes from `start` to `end` as text, invalid UTF-8 repaired: decoded where they lie,
    /// so that a value looked up per row (a RevenueCat export's product id) makes no array.
    public func text(from start: Int, to end: Int) -> String {
        withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }
}
