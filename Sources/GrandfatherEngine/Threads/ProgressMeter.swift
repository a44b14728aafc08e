import Foundation

/// Adds up what the parsers of a run have read and tells the progress sink.
public final class ProgressMeter: @unchecked Sendable {
    private let sink: ProgressSink?
    private let total: Int64
    private let lock = NSLock()
    /// Touched only with `lock` held.
    private var bytes: Int64 = 0
    private var rows = 0

    public init(sink: ProgressSink?, total: Int64) {
        self.sink = sink
        self.total = total
    }

    /// A parser read `bytes` more bytes holding `rows` more rows.
    public func advance(bytes delta: Int, rows added: Int) {
        guard let sink else { return }
        lock.lock()
        bytes += Int64(delta)
        rows += added
        let (read, count) = (bytes, rows)
        lock.unlock()
        sink.read(bytes: read, of: total, rows: count)
    }
}

/// Receives progress from a run; the command shows it only on a terminal.
public protocol ProgressSink: Sendable {
    /// Input read so far: bytes of all inputs' bytes, and rows. Called often, from any thread.
    func read(bytes: Int64, of total: Int64, rows: Int)
}
