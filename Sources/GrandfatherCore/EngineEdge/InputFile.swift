import GrandfatherEngine

/// Inputs opened and read as bytes (`ByteSource`), failing as the run fails.
enum InputFile {
    /// `ByteSource(path:)`: the input opened, inflated or decoded once where it must be.
    static func open(_ path: String) throws(GrandfatherError) -> ByteSource {
        try EngineEdge.converting { () throws(EngineError) in try ByteSource(path: path) }
    }

    /// `ByteSource.readAll()`: the whole input after its byte-order mark.
    static func readAll(_ source: ByteSource) throws(GrandfatherError) -> [UInt8] {
        try EngineEdge.converting { () throws(EngineError) in try source.readAll() }
    }

    /// `ByteSource.read(at:count:into:)`: up to `count` bytes at `offset` into the front of
    /// `buffer`; how many were read, fewer only at the end.
    static func read(
        _ source: ByteSource, at offset: Int, count: Int, into buffer: inout [UInt8]
    ) throws(GrandfatherError) -> Int {
        try EngineEdge.converting { () throws(EngineError) in try source.read(at: offset, count: count, into: &buffer) }
    }

    /// `ByteSource.sha256()`: the digest of the file as on disk.
    static func sha256(of source: ByteSource) throws(GrandfatherError) -> String {
        try EngineEdge.converting { () throws(EngineError) in try source.sha256() }
    }

    /// `ByteSource.contentSHA256()`: the digest of the text as read (inflated, decoded).
    static func contentSHA256(of source: ByteSource) throws(GrandfatherError) -> String {
        try EngineEdge.converting { () throws(EngineError) in try source.contentSHA256() }
    }
}
