/// Base64 decoding from bytes, both alphabets (RFC 4648 §4 and §5), padding optional.
///
/// Written by hand because it is hot: every JWS carries three base64url segments and a
/// three-certificate `x5c` of about 2 KB, and Foundation's decoder goes through `String`
/// bridging and a search-and-replace for the URL alphabet, which took half of the time of
/// reading signed files.
enum Base64 {
    /// Which characters encode 62 and 63.
    enum Alphabet {
        /// `+` and `/`.
        case standard
        /// `-` and `_`.
        case url
    }

    private static let invalid: UInt8 = 0xFF

    private static func table(_ alphabet: Alphabet) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        switch alphabet {
        case .standard:
            table[Int(UInt8(ascii: "+"))] = 62
            table[Int(UInt8(ascii: "/"))] = 63
        case .url:
            table[Int(UInt8(ascii: "-"))] = 62
            table[Int(UInt8(ascii: "_"))] = 63
        }
        return table
    }

    private static let standardTable = table(.standard)
    private static let urlTable = table(.url)

    /// The decoded bytes, or `nil` on a character outside the alphabet, misplaced padding, or
    /// a length no encoding has (one character left over).
    static func decode(_ encoded: some Collection<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        decode(Array(encoded).span, alphabet: alphabet)
    }

    /// `decode(_:alphabet:)` of a string's UTF-8, read in place: a Pub/Sub envelope's `data` is
    /// decoded for every notification.
    static func decode(_ encoded: String.UTF8View, alphabet: Alphabet) -> [UInt8]? {
        decode(encoded.span, alphabet: alphabet)
    }

    private static func decode(_ encoded: Span<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        let table = (alphabet == .url ? urlTable : standardTable).span
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var pending = 0
        var padding = 0
        for index in encoded.indices {
            let byte = encoded[index]
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            // Nothing but padding may follow padding.
            guard padding == 0 else { return nil }
            let value = table[Int(byte)]
            guard value != invalid else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            pending += 1
            if pending == 4 {
                output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                pending = 0
            }
        }
        switch pending {
        case 0: break
        case 2: output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default: return nil
        }
        guard padding <= 2, padding == 0 || (pending + padding) % 4 == 0 else { return nil }
        return output
    }
}
