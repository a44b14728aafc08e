extension Hasher {
    /// Feeds the bytes of `array` in bulk, with its count first (so `[1] + [2, 3]` and
    /// `[1, 2] + [3]` differ): `[UInt8]`'s own hashing feeds the hasher one byte at a time,
    /// which a key of certificates (kilobytes, looked up for every JWS) cannot afford.
    public mutating func combine(contentsOf array: [UInt8]) {
        combine(array.count)
        array.withUnsafeBytes { combine(bytes: $0) }
    }
}

extension Hasher {
    /// Feeds the bytes of `span` in bulk, with its count first: how a source outside the
    /// engine hashes a field it reads as a span (a RevenueCat delivery key).
    public mutating func combine(span: Span<UInt8>) {
        combine(span.count)
        span.withUnsafeBytes { combine(bytes: $0) }
    }
}
