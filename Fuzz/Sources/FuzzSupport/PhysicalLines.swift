/// How many physical lines an input has, counted as the readers count them: at LF, at CRLF
/// (once), and at a lone CR; an input without a line break is one line.
public enum PhysicalLines {
    public static func count(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 1
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) { count += 1 }
        }
        return count
    }
}
