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
/// A segment's file is written with `O_DIRECT` where the file system takes it: past the page
/// cache, whose copy and later flush cost normalize more than the disk did (1.8 GB at a
/// million customers: 2.2 s of system time to write, 5.7 s with the flush, against 0.14 s).
/// Segments that never grew past memory are written together, in that order, as parts of
/// their own. The rows, read part after part, are the same on every run whatever the threads
/// did; where the parts are cut follows how the inputs were cut for the parsers.
public final class RecordLog: @unchecked Sendable {
    /// Each input's place in the order given.
    private let places: [String: Int]
    private let header: [UInt8]
    /// The folder the segments' files and the parts are written in.
    private let folder: String
    /// Whether segments' files are tried with `O_DIRECT` first.
    private let direct: Bool
    private let segments = Mutex<[Segment]>([])
    /// The first write that failed; reported when the parts are written.
    private let failure = Mutex<EngineError?>(nil)

    /// A log whose parts each begin with `header` and are written in `folder`, which must
    /// exist and be this run's alone (the segments' files wait there under hidden names).
    /// `direct: false` writes through the page cache (tests of that path).
    public init(inputs: [String], header: String, folder: String, direct: Bool = true) {
        var places: [String: Int] = [:]
        for (place, input) in inputs.enumerated() where places[input] == nil { places[input] = place }
        self.places = places
        self.header = Array(header.utf8)
        self.folder = folder
        self.direct = direct
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
                    if let code = segment.writeRows(to: descriptor) { return code }
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
        /// What `O_DIRECT` asks of every write's memory, length and place in the file: a
        /// multiple of the disk's block (512 or 4,096 bytes).
        private static let block = 4096
        /// Linux's `O_DIRECT`, which Swift's Glibc module leaves out (it is behind
        /// `_GNU_SOURCE`); its value differs by architecture, and elsewhere nothing is direct.
        private static let oDirect: Int32 = {
            #if os(Linux) && arch(x86_64)
                return 0o40000
            #elseif os(Linux) && arch(arm64)
                return 0o200000
            #else
                return 0
            #endif
        }()

        fileprivate let place: Int
        fileprivate let file: String
        fileprivate let order: Int
        /// Its place among the log's segments, which names its file.
        private let number: Int
        private unowned let log: RecordLog
        /// The header, then the rows not yet in the file: a part's first bytes are its header.
        /// Block-aligned once the file is direct; until then as any buffer, since most
        /// segments never reach a file, and aligned allocations of every small one left
        /// glibc's heap in pieces that each `malloc_trim` (`FreedMemory`) then walked: a
        /// test of many small normalize runs took ten times as long.
        private var buffer = ByteBuffer(capacity: 1 << 16)
        /// The segment's file, once the rows outgrew memory.
        private var descriptor: Int32 = -1
        /// Whether the file is written past the page cache, in whole blocks.
        private var direct = false
        /// The bytes in the file.
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
            log.header.withUnsafeBytes { buffer.append($0) }
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        /// The bytes of its header and rows.
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
                if descriptor < 0 { try create() }
                // In whole blocks when direct; the rest waits for the next rows.
                let count = direct ? buffer.count / Self.block * Self.block : buffer.count
                try write(count)
                buffer.removeFirst(count)
            } catch {
                log.fail(error)
                buffer.truncate(to: 0)
            }
        }

        /// Creates the segment's file, direct where the file system allows it.
        private func create() throws(EngineError) {
            let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
            descriptor = Self.oDirect == 0 || !log.direct ? -1 : open(path, flags | Self.oDirect, 0o644)
            direct = descriptor >= 0
            // tmpfs and some others refuse O_DIRECT (EINVAL): the page cache, then.
            if descriptor < 0, Self.oDirect == 0 || !log.direct || errno == EINVAL {
                descriptor = open(path, flags, 0o644)
            }
            guard descriptor >= 0 else {
                throw .io(path: path, message: "cannot create file: \(FileSystem.describeErrno())")
            }
            if direct {
                let aligned = ByteBuffer(capacity: buffer.count + Self.block, alignment: Self.block)
                buffer.withBytes { aligned.append($0) }
                buffer = aligned
            }
        }

        /// Writes the buffer's first `count` bytes at the end of the file.
        private func write(_ count: Int) throws(EngineError) {
            guard count > 0 else { return }
            var code = buffer.withBytes {
                FileWriting.writeAll(UnsafeRawBufferPointer(rebasing: $0.prefix(count)), to: descriptor, at: spilled)
            }
            // A file system may take O_DIRECT at open and refuse it for a write: through the
            // page cache, then, from the same place.
            if code == EINVAL, direct {
                try buffered()
                code = buffer.withBytes {
                    FileWriting.writeAll(
                        UnsafeRawBufferPointer(rebasing: $0.prefix(count)), to: descriptor, at: spilled)
                }
            }
            if let code { throw failed(code) }
            spilled += count
        }

        /// Writes through the page cache from now on.
        private func buffered() throws(EngineError) {
            guard direct else { return }
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~Self.oDirect) == 0 else {
                throw .io(path: path, message: "cannot write through the page cache: \(FileSystem.describeErrno())")
            }
            direct = false
        }

        private func failed(_ code: Int32) -> EngineError {
            .io(path: path, message: "cannot write: \(String(cString: strerror(code)))")
        }

        /// Writes its rows, all in memory, to `target`: a segment without a file of its own,
        /// whose part has one header for several segments.
        fileprivate func writeRows(to target: Int32) -> Int32? {
            buffer.withBytes { bytes in
                FileWriting.writeAll(Array(bytes.dropFirst(log.header.count)), to: target)
            }
        }

        /// Ends the segment's file with the bytes still in memory, flushes it and gives it its
        /// part's name.
        fileprivate func finish(as part: String) throws(EngineError) {
            // The last bytes are no whole block.
            try buffered()
            try write(buffer.count)
            buffer.truncate(to: 0)
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
