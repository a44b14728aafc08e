extension String {
    /// Code-point order, which for UTF-8 is byte order; Swift's `<` normalises first (SPEC
    /// §8.25 orders ids so).
    public func codePointPrecedes(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }

    /// Whether two ids are the same code points (Swift's `==` would also equate NFC and NFD
    /// spellings, which SPEC §8.25 keeps ids apart).
    public func codePointEquals(_ other: String) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
