import Dispatch
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

    /// `ByteSource.sha256(ofFileAt:)` of each of `paths`, taken on another thread while the caller
    /// reads them (each digest reads its file again, and a source that parses on one core
    /// leaves the other idle): `take` waits for them.
    static func digestsInBackground(of paths: [String]) -> Digests {
        let digests = Digests(count: paths.count)
        DispatchQueue.global().async(group: digests.group) {
            for (index, path) in paths.enumerated() {
                digests.slots.store(index, Result { () throws(EngineError) in try ByteSource.sha256(ofFileAt: path) })
            }
        }
        return digests
    }

    /// The digests `digestsInBackground(of:)` takes.
    final class Digests: Sendable {
        fileprivate let slots: ResultSlots<String, EngineError>
        fileprivate let group = DispatchGroup()

        fileprivate init(count: Int) { slots = ResultSlots(count: count) }

        /// The digest of the path at `index`, once taken.
        func take(_ index: Int) throws(GrandfatherError) -> String {
            group.wait()
            return try EngineEdge.converting { () throws(EngineError) in try slots.take(index) }
        }
    }

    /// `ByteSource.contentSHA256()`: the digest of the text as read (inflated, decoded).
    static func contentSHA256(of source: ByteSource) throws(GrandfatherError) -> String {
        try EngineEdge.converting { () throws(EngineError) in try source.contentSHA256() }
    }
}
