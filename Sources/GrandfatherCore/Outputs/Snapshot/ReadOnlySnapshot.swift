import GRDB
import GrandfatherEngine

/// A snapshot opened read-only with its schema version checked: how `explain` and the
/// comparison with the previous run both open one, with the same one-line failures.
struct ReadOnlySnapshot {
    let queue: DatabaseQueue
    /// `PRAGMA user_version`, one this tool reads.
    let version: Int

    /// Opens `path`; `noun` names it in messages ("snapshot", "previous snapshot").
    /// - Throws: `GrandfatherError.io` naming the path when it is missing, not SQLite, or of
    ///   a schema version this tool does not know.
    static func open(_ path: String, label: String, noun: String) throws(GrandfatherError) -> ReadOnlySnapshot {
        guard FileSystem.exists(path) else { throw .io(path: path, message: "\(noun) does not exist") }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.label = label
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            guard (1...SnapshotSchema.version).contains(version) else {
                throw GrandfatherError.io(
                    path: path,
                    message: "\(noun) has schema version \(version); this tool reads 1 to \(SnapshotSchema.version)")
            }
            return ReadOnlySnapshot(queue: queue, version: version)
        } catch {
            throw failure(error, path: path, noun: noun)
        }
    }

    /// Any failure while reading, as one line naming the file.
    static func failure(_ error: any Error, path: String, noun: String) -> GrandfatherError {
        if let error = error as? GrandfatherError { return error }
        let reason = (error as? DatabaseError).map { $0.message ?? $0.description } ?? "\(error)"
        return .io(path: path, message: "cannot read \(noun): \(reason)")
    }
}
