/// Text appended to a `ByteBuffer` without a string in between.
extension ByteBuffer {
    /// Appends a string's UTF-8.
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a compact text's bytes (an id held in words).
    public func append(_ text: CompactText) {
        text.withBytes { append($0) }
    }
}
