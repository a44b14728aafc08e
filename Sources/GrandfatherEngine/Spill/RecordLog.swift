import Foundation
import Synchronization

/// Rows written by several parsers at once into one file, in an order that does not depend on
/// the threads (`grandfather normalize` writes its rows through it).
///
/// Rows arrive from several parsers at once, one sink per range of a file. Each sink writes a
/// segment of its own, kept in memory while small and then in an unnamed temporary file; the
/// segments are joined in the order of the inputs, then of their first line, so the file is
/// the same on every run whatever the threads did.
public final class RecordLog: @unchecked Sendable {
    /// Each input's place in the order given.
    private let places: [String: Int]
    private let segments = Mutex<[Segment]>([])
    /// The first write that failed; reported when the log is written out.
    private let failure = Mutex<EngineError?>(nil)

    public init(inputs: [String]) {
        var places: [String: Int] = [:]
        for (place, input) in inputs.enumerated() where places[input] == nil { places[input] = place }
        self.places = places
    }

    /// A new segment for the rows of `file` a sink reads, from `order` (its first line, or the
    /// byte offset of its range) on.
    public func segment(file: String, order: Int) -> Segment {
        let segment = Segment(place: places[file] ?? places.count, file: file, order: order, log: self)
        segments.withLock { $0.append(segment) }
        return segment
    }

    /// Rows written so far, by every segment.
    public var rows: Int { segments.withLock { $0.reduce(0) { $0 + $1.rows } } }

    fileprivate func fail(_ error: EngineError) {
        failure.withLock { if $0 == nil { $0 = error } }
    }

    /// Writes `header` and then every segment, in order, to the new file at `path`.
    public func write(header: String, to path: String) throws(EngineError) {
        if let error = failure.withLock({ $0 }) { throw error }
        let ordered = segments.withLock { $0 }.sorted(by: Segment.precedes)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .io(path: path, message: "cannot create file: \(FileSystem.describeErrno())")
        }
        defer { close(descriptor) }
        func failed(_ code: Int32) -> EngineError {
            .io(path: path, message: "cannot write: \(String(cString: strerror(code)))")
        }
        if let code = FileWriting.writeAll(Array(header.utf8), to: descriptor) { throw failed(code) }
        for segment in ordered { try segment.copy(to: descriptor, path: path) }
        guard fsync(descriptor) == 0 else {
            throw .io(path: path, message: "cannot flush: \(FileSystem.describeErrno())")
        }
    }

    /// The rows one sink gave, in the order it gave them.
    public final class Segment: @unchecked Sendable {
        /// Held in memory up to this many bytes, then moved to the segment's file.
        private static let spillAt = 4 << 20

        fileprivate let place: Int
        fileprivate let file: String
        fileprivate let order: Int
        private unowned let log: RecordLog
        private let buffer = ByteBuffer(capacity: 1 << 16)
        /// The unnamed file the rows moved to, once there were enough.
        private var descriptor: Int32 = -1
        private var spilled = 0
        fileprivate private(set) var rows = 0
        /// Of the first batch's bytes: with the length, what orders two segments that start on
        /// one line (no source makes two such; hashing every byte cost normalize a pass over
        /// all it writes, 17.5 GB at 10M customers).
        private var digest = StableHash()

        fileprivate init(place: Int, file: String, order: Int, log: RecordLog) {
            self.place = place
            self.file = file
            self.order = order
            self.log = log
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        private var size: Int { spilled + buffer.count }

        /// Appends `count` rows, which `write` lays into the buffer it is given, in order.
        public func append(rows count: Int, _ write: (ByteBuffer) -> Void) {
            let first = rows == 0
            rows += count
            write(buffer)
            if first { buffer.withBytes { digest.combine($0) } }
            if buffer.count >= Self.spillAt { spill() }
        }

        private func spill() {
            do {
                if descriptor < 0 {
                    descriptor = try TemporaryFiles.anonymousFile(purpose: "to keep normalized rows in", for: file)
                }
                if let code = FileWriting.writeAll(buffer, to: descriptor) {
                    throw EngineError.io(
                        path: TemporaryFiles.directory,
                        message: "cannot write a temporary file: \(String(cString: strerror(code)))")
                }
                spilled += buffer.count
                buffer.truncate(to: 0)
            } catch let error as EngineError {
                log.fail(error)
                buffer.truncate(to: 0)
            } catch {
                log.fail(.internal("\(error)"))
            }
        }

        /// Copies the segment's bytes to the end of `target`.
        fileprivate func copy(to target: Int32, path: String) throws(EngineError) {
            if spilled > 0 {
                var chunk = [UInt8](repeating: 0, count: 1 << 20)
                var offset = 0
                while offset < spilled {
                    let got = chunk.withUnsafeMutableBytes { raw in
                        pread(descriptor, raw.baseAddress, min(raw.count, spilled - offset), off_t(offset))
                    }
                    if got < 0, errno == EINTR { continue }
                    guard got > 0 else {
                        throw .io(path: TemporaryFiles.directory, message: "cannot read a temporary file back")
                    }
                    if let code = chunk.withUnsafeBytes({ raw in
                        FileWriting.writeAll(Array(raw.prefix(got)), to: target)
                    }) {
                        throw .io(path: path, message: "cannot write: \(String(cString: strerror(code)))")
                    }
                    offset += got
                }
            }
            if let code = FileWriting.writeAll(buffer, to: target) {
                throw .io(path: path, message: "cannot write: \(String(cString: strerror(code)))")
            }
        }

        /// Input order, then place in the file; segments of one place (two sources reading one file)
        /// by their bytes' size and digest, so that no thread's timing shows.
        fileprivate static func precedes(_ left: Segment, _ right: Segment) -> Bool {
            if left.place != right.place { return left.place < right.place }
            if left.file != right.file { return left.file.codePointPrecedes(right.file) }
            if left.order != right.order { return left.order < right.order }
            if left.size != right.size { return left.size < right.size }
            return left.digest.value < right.digest.value
        }
    }
}
