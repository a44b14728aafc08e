import Foundation
import Synchronization

/// Rows written by several parsers at once into the parts of one table, in an order that does
/// not depend on the threads (`grandfather normalize` writes its rows through it).
///
/// Rows arrive from several parsers at once, one sink per range of a file. Each sink writes a
/// segment of its own, kept in memory while small and then in a file of its own in the folder
/// being written, headed by the table's header. At the end the segments are put in the order
/// of the inputs, then of their first line, and each segment's file becomes the next part, as
/// it is: no row is copied, so the table needs its own size in free disk, not twice that.
/// Segments that never grew past memory are written together, in that order, as parts of
/// their own. The rows, read part after part, are the same on every run whatever the threads
/// did; where the parts are cut follows how the inputs were cut for the parsers.
public final class RecordLog: @unchecked Sendable {
    /// Each input's place in the order given.
    private let places: [String: Int]
    private let header: [UInt8]
    /// The folder the segments' files and the parts are written in.
    private let folder: String
    private let segments = Mutex<[Segment]>([])
    /// The first write that failed; reported when the parts are written.
    private let failure = Mutex<EngineError?>(nil)

    /// A log whose parts each begin with `header` and are written in `folder`, which must
    /// exist and be this run's alone (the segments' files wait there under hidden names).
    public init(inputs: [String], header: String, folder: String) {
        var places: [String: Int] = [:]
        for (place, input) in inputs.enumerated() where places[input] == nil { places[input] = place }
        self.places = places
        self.header = Array(header.utf8)
        self.folder = folder
    }

    /// A new segment for the rows of `file` a sink reads, from `order` (its first line, or the
    /// byte offset of its range) on.
    public func segment(file: String, order: Int) -> Segment {
        segments.withLock { segments in
            let segment = Segment(
                place: places[file] ?? places.count, file: file, order: order, number: segments.count, log: self)
            segments.append(segment)
            return segment
        }
    }

    /// Rows written so far, by every segment.
    public var rows: Int { segments.withLock { $0.reduce(0) { $0 + $1.rows } } }

    fileprivate func fail(_ error: EngineError) {
        failure.withLock { if $0 == nil { $0 = error } }
    }

    /// Writes every segment, in order, as the parts `name(1)`, `name(2)`, … of the folder, each
    /// flushed, and returns their names. A log without rows writes one part of its header
    /// alone, so that a table always has a file.
    public func writeParts(named name: (Int) -> String) throws(EngineError) -> [String] {
        if let error = failure.withLock({ $0 }) { throw error }
        let ordered = segments.withLock { $0 }.sorted(by: Segment.precedes)
        var parts: [String] = []
        var held: [Segment] = []
        var heldBytes = 0
        func nextPath() -> String {
            parts.append(name(parts.count + 1))
            return FileSystem.join(folder, parts[parts.count - 1])
        }
        func writeHeld() throws(EngineError) {
            guard !held.isEmpty else { return }
            let segments = held
            held = []
            heldBytes = 0
            try FileSystem.writeNewFile(nextPath()) { descriptor in
                if let code = FileWriting.writeAll(header, to: descriptor) { return code }
                for segment in segments {
                    if let code = segment.writeHeld(to: descriptor) { return code }
                }
                return nil
            }
        }
        for segment in ordered {
            if segment.hasFile {
                try writeHeld()
                try segment.finish(as: nextPath())
            } else {
                held.append(segment)
                heldBytes += segment.size
                if heldBytes >= Segment.spillAt { try writeHeld() }
            }
        }
        try writeHeld()
        if parts.isEmpty { try FileSystem.writeNewFile(nextPath(), header) }
        return parts
    }

    /// The rows one sink gave, in the order it gave them.
    public final class Segment: @unchecked Sendable {
        /// Held in memory up to this many bytes, then moved to the segment's file.
        fileprivate static let spillAt = 4 << 20

        fileprivate let place: Int
        fileprivate let file: String
        fileprivate let order: Int
        /// Its place among the log's segments, which names its file.
        private let number: Int
        private unowned let log: RecordLog
        private let buffer = ByteBuffer(capacity: 1 << 16)
        /// The segment's file, once the rows outgrew memory.
        private var descriptor: Int32 = -1
        private var spilled = 0
        fileprivate private(set) var rows = 0
        /// Of the first batch's bytes: with the length, what orders two segments that start on
        /// one line (no source makes two such; hashing every byte cost normalize a pass over
        /// all it writes, 17.5 GB at 10M customers).
        private var digest = StableHash()

        fileprivate init(place: Int, file: String, order: Int, number: Int, log: RecordLog) {
            self.place = place
            self.file = file
            self.order = order
            self.number = number
            self.log = log
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        /// The bytes of its rows.
        fileprivate var size: Int { spilled + buffer.count }
        fileprivate var hasFile: Bool { descriptor >= 0 }
        /// Hidden, so a reader of the folder's tables never takes it for one.
        private var path: String { FileSystem.join(log.folder, ".segment-\(number)") }

        /// Appends `count` rows, which `write` lays into the buffer it is given, in order.
        public func append(rows count: Int, _ write: (ByteBuffer) -> Void) {
            let first = rows == 0
            rows += count
            write(buffer)
            if first { buffer.withBytes { digest.combine($0) } }
            if buffer.count >= Self.spillAt { spill() }
        }

        private func spill() {
            do throws(EngineError) {
                if descriptor < 0 {
                    descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                    guard descriptor >= 0 else {
                        throw .io(path: path, message: "cannot create file: \(FileSystem.describeErrno())")
                    }
                    if let code = FileWriting.writeAll(log.header, to: descriptor) { throw failed(code) }
                }
                if let code = FileWriting.writeAll(buffer, to: descriptor) { throw failed(code) }
                spilled += buffer.count
                buffer.truncate(to: 0)
            } catch {
                log.fail(error)
                buffer.truncate(to: 0)
            }
        }

        private func failed(_ code: Int32) -> EngineError {
            .io(path: path, message: "cannot write: \(String(cString: strerror(code)))")
        }

        /// Writes the rows still in memory to `target` (a segment without a file of its own).
        fileprivate func writeHeld(to target: Int32) -> Int32? {
            FileWriting.writeAll(buffer, to: target)
        }

        /// Ends the segment's file with the rows still in memory, flushes it and gives it its
        /// part's name.
        fileprivate func finish(as part: String) throws(EngineError) {
            if let code = FileWriting.writeAll(buffer, to: descriptor) { throw failed(code) }
            guard fsync(descriptor) == 0 else {
                throw .io(path: path, message: "cannot flush: \(FileSystem.describeErrno())")
            }
            try FileSystem.rename(path, part)
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
