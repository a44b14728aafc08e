import GrandfatherEngine

/// The first bytes of an input being recognised, read as sources ask for more, doubling:
/// most files are told by their first chunk, a JSON file whose first object is long by a
/// few more.
struct FilePeek {
    /// The path as given.
    let path: String
    /// The open file (its byte-order mark, if any, already skipped).
    let source: ByteSource
    /// The bytes read so far, from the start of the data.
    private(set) var prefix: [UInt8] = []
    private var offset: Int
    private var chunk: [UInt8] = []

    /// The mapping `--map` gave, for the source that reads files through it.
    var mapping: Mapping?

    init(path: String, mapping: Mapping? = nil) throws(GrandfatherError) {
        self.path = path
        self.mapping = mapping
        source = try InputFile.open(path)
        offset = source.dataStart
    }

    /// The file's size in bytes.
    var size: Int { source.size }

    /// Reads onto `prefix` as much again as it holds (a chunk at first); `false` at the end
    /// of the file. Doubling, because recognisers parse the whole prefix again after each
    /// read: a 16 MiB first object read a chunk at a time was parsed 64 times over.
    mutating func readMore() throws(GrandfatherError) -> Bool {
        let count = try InputFile.read(source, at: offset, count: max(ByteSource.chunkSize, prefix.count), into: &chunk)
        guard count > 0 else { return false }
        prefix.append(contentsOf: chunk[0..<count])
        offset += count
        return true
    }

    /// The first byte read that is not a space, tab or line break; `nil` while there is none.
    var firstNonBlank: UInt8? {
        prefix.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }

    /// The bytes of the file's first line, without its line break; `nil` when the file has
    /// none within the first megabyte (a header is never that long).
    mutating func firstLine() -> ArraySlice<UInt8>? {
        while true {
            if let end = prefix.firstIndex(of: 0x0A) {
                let line = prefix[..<end]
                return line.last == 0x0D ? line.dropLast() : line
            }
            guard prefix.count < 1 << 20, (try? readMore()) == true else {
                return prefix.isEmpty || prefix.count >= 1 << 20 ? nil : prefix[...]
            }
        }
    }

    /// A description of the file as `source` recognised it.
    func describe(format: InputFormat, kind: RecordKind) -> InputDescription {
        InputDescription(path: path, format: format, kind: kind, size: Int64(size))
    }
}
