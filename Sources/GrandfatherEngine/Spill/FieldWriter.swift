/// Where a source that maps its own columns (a RevenueCat export) writes one record's texts,
/// by field index. The mapping rules live with the source and say what goes where; a writer
/// only keeps the bytes.
public protocol FieldWriter {
    /// Sets `field` to a copy of `bytes`.
    mutating func set(_ field: Int, bytes: Span<UInt8>)
    /// Appends `bytes` to `field`, which must be the field set last.
    mutating func append(_ field: Int, bytes: Span<UInt8>)
}
