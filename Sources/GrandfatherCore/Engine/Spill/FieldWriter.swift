/// Where a source that maps its own columns (a RevenueCat export) lays out one row's
/// canonical fields, by field index. The mapping rules live with the source and say what
/// goes where; a writer only keeps the bytes.
protocol FieldWriter {
    /// Sets `field` to a copy of `bytes`.
    mutating func set(_ field: Int, bytes: Span<UInt8>)
    /// Sets `field` to fixed ASCII text (an enum value's spelling).
    mutating func set(_ field: Int, ascii: StaticString)
    /// Sets `field` to `instant` as text of a timestamp form (SPEC §8.6) that the normalizer
    /// reads back exactly.
    mutating func set(_ field: Int, instant: Instant)
    /// Appends `bytes` to `field`, which must be the field set last.
    mutating func append(_ field: Int, bytes: Span<UInt8>)
}
