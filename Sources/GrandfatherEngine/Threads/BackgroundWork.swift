import Dispatch

/// Pieces of work handed from a reader's thread to one other thread, done there one at a
/// time in the order given, on state that thread alone touches: a reader that maps records
/// on one core while the other folds what it mapped, where the two would otherwise take turns.
///
/// The hand-over is where the compiler's check of sharing stops: the reader gives up each
/// piece it hands over and never uses it again (a piece may hold a class, such as a
/// batch's text buffer, that the piece alone references), and it reads the state only
/// through `finish`, once the work is done. At most `waiting` pieces wait or are worked on
/// at a time: a reader faster than the work waits for it, so memory holds that many pieces.
public final class BackgroundWork<State, Piece>: @unchecked Sendable {
    private let queue = DispatchQueue(label: "grandfather.background-work")
    private let room: DispatchSemaphore
    /// Used only on `queue`.
    private var state: State
    private let work: (inout State, Piece) -> Void

    /// A piece in transit between the two threads (see the class's note).
    private struct Handed: @unchecked Sendable {
        let piece: Piece
    }

    public init(_ state: State, waiting: Int = 2, work: @escaping (inout State, Piece) -> Void) {
        self.state = state
        self.work = work
        room = DispatchSemaphore(value: max(1, waiting))
    }

    /// Hands `piece` over to be worked on, once there is room; the caller must not use it again.
    public func hand(_ piece: consuming Piece) {
        room.wait()
        let handed = Handed(piece: piece)
        queue.async { [self] in
            work(&state, handed.piece)
            room.signal()
        }
    }

    /// Waits for every piece handed over to be worked on, then gives `body`'s reading of the state.
    public func finish<Result>(_ body: (inout State) -> Result) -> Result {
        queue.sync { body(&state) }
    }
}
