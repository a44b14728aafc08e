extension Excerpt {
    /// The excerpt of raw field bytes; invalid UTF-8 shows as U+FFFD. Only the head is decoded:
    /// a rejected field may be 64 KiB long.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> String {
        // Four bytes per scalar at most: the head holds every scalar that can be shown.
        let head = UnsafeRawBufferPointer(rebasing: bytes.prefix(maximumScalars * 4))
        return of(String(decoding: head, as: UTF8.self), cut: head.count < bytes.count)
    }
}
