/// Everything that fails a run, as opposed to a rejected row (which is data).
///
/// Each case knows its exit code (SPEC §7) and prints as one line, in the
/// `file:line:column: error: message` shape where there is a place to name.
public enum GrandfatherError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A bad command line: exit 2.
    case usage(String)
    /// An invalid policy, named by file and, where known, line and column of the key: exit 2.
    case policy(file: String, line: Int?, column: Int?, message: String)
    /// An input that cannot be taken as records at all (unknown kind, tie, bad header): exit 2.
    case input(file: String, line: Int?, message: String)
    /// Reading or writing failed: exit 1.
    case io(path: String, message: String)
    /// SQLite refused something, worded like GRDB: code, message and the SQL: exit 1.
    case snapshot(message: String)
    /// Rejected rows over `max_rejected_fraction`: exit 3; the run folder was still written.
    case dataQuality(rejected: Int, read: Int, maximumFraction: Double, runFolder: String?)
    /// A bug or an impossible state: exit 1.
    case `internal`(String)

    /// The process exit code for this error (SPEC §7).
    public var exitCode: Int32 {
        switch self {
        case .usage, .policy, .input: return 2
        case .io, .snapshot, .internal: return 1
        case .dataQuality: return 3
        }
    }

    /// One line, ready for stderr.
    public var description: String {
        switch self {
        case .usage(let message):
            return "error: \(message)"
        case .policy(let file, let line, let column, let message):
            return Self.place(file, line, column) + "error: \(message)"
        case .input(let file, let line, let message):
            return Self.place(file, line, nil) + "error: \(message)"
        case .io(let path, let message):
            return "\(path): error: \(message)"
        case .snapshot(let message):
            return "error: snapshot: \(message)"
        case .dataQuality(let rejected, let read, let maximum, let folder):
            let written = folder.map { "; run written to \($0), latest not moved" } ?? ""
            return "error: \(rejected) of \(read) rows rejected, over max_rejected_fraction \(maximum)\(written)"
        case .internal(let message):
            return "error: internal: \(message)"
        }
    }

    private static func place(_ file: String, _ line: Int?, _ column: Int?) -> String {
        var text = file + ":"
        if let line { text += "\(line):" }
        if let column { text += "\(column):" }
        return text + " "
    }
}
