/// What the engine fails with: a file that cannot be read or written, bytes that cannot be
/// taken as records at all, a path that names no file, or a broken invariant. Each case
/// prints as one line naming its path; a caller that has exit codes maps the cases onto its
/// own failures (`EngineFailure`), keeping the words.
public enum EngineError: Error, Equatable, Sendable {
    /// A path given by the user that is not a file to read (a directory, a FIFO, a loop).
    case usage(String)
    /// Bytes that cannot be taken as records at all, named by file and, where known, line.
    case input(file: String, line: Int?, message: String)
    /// Reading or writing failed.
    case io(path: String, message: String)
    /// A bug or an impossible state.
    case `internal`(String)
}

/// A caller's failure type that can carry the engine's: the engine's generic machinery
/// (`ResultSlots`) raises its own failures in the caller's type through it.
public protocol EngineFailure: Error {
    init(_ failure: EngineError)
}

extension EngineError: EngineFailure {
    public init(_ failure: EngineError) {
        self = failure
    }
}
