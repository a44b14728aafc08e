import GRDB
import GRDBSQLite
import GrandfatherEngine

/// One prepared INSERT stepped directly through SQLite's C interface: the snapshot writes
/// millions of rows, and building GRDB `StatementArguments` per row costs more than the
/// insert itself (see the benchmark figures in bench/README.md). Errors read like GRDB's.
///
/// Text is copied into a buffer of the inserter's own and bound `SQLITE_STATIC`, so SQLite
/// neither allocates nor copies per value (its allocator takes a global lock each time).
struct BulkInsert: ~Copyable {
    private let statement: Statement
    private let handle: OpaquePointer
    private var column: Int32 = 0
    /// The current row's text values, valid until `step`.
    private let arena: UnsafeMutablePointer<UInt8>
    private var used = 0
    private static let arenaSize = 1 << 16

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        handle = statement.sqliteStatement
        arena = .allocate(capacity: Self.arenaSize)
    }

    deinit {
        arena.deallocate()
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func bind(_ text: String?) throws {
        guard var text else {
            column += 1
            try check(sqlite3_bind_null(handle, column))
            return
        }
        try text.withUTF8 { bytes in try bind(bytes: UnsafeRawBufferPointer(bytes)) }
    }

    /// Binds text held in the value (an id of up to 24 bytes) without making a string.
    mutating func bind(_ text: CompactText) throws {
        try text.withBytes { bytes in try bind(bytes: bytes) }
    }

    /// Binds UTF-8 bytes as text.
    private mutating func bind(bytes: UnsafeRawBufferPointer) throws {
        column += 1
        guard used + bytes.count <= Self.arenaSize, let source = bytes.baseAddress else {
            // An empty or unusually long value: let SQLite take its own copy.
            let start = (bytes.baseAddress ?? UnsafeRawPointer(arena)).assumingMemoryBound(to: CChar.self)
            return try check(sqlite3_bind_text(handle, column, start, Int32(bytes.count), Self.transient))
        }
        let target = arena + used
        if bytes.count <= 16 {
            // Most values are short: a call to memmove costs more than copying them here.
            for index in 0..<bytes.count { target[index] = source.load(fromByteOffset: index, as: UInt8.self) }
        } else {
            UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: bytes.count)
        }
        used += bytes.count
        // SQLITE_STATIC: the bytes stay put until `step` resets the statement.
        let code = target.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text(handle, column, $0, Int32(bytes.count), nil)
        }
        try check(code)
    }

    mutating func bind(_ instant: Instant?) throws {
        guard let instant else { return try bind(nil as String?) }
        guard used + Instant.maximumISO8601Length <= Self.arenaSize,
            let length = instant.writeISO8601(into: arena + used)
        else { return try bind(instant.iso8601) }
        column += 1
        let target = arena + used
        used += length
        let code = target.withMemoryRebound(to: CChar.self, capacity: length) {
            sqlite3_bind_text(handle, column, $0, Int32(length), nil)
        }
        try check(code)
    }

    mutating func bind(_ value: Int?) throws {
        column += 1
        guard let value else {
            try check(sqlite3_bind_null(handle, column))
            return
        }
        try check(sqlite3_bind_int64(handle, column, Int64(value)))
    }

    mutating func bind(_ value: Bool?) throws {
        try bind(value.map { $0 ? 1 : 0 })
    }

    /// Runs the insert with the values bound since the last one.
    mutating func step() throws {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
        sqlite3_reset(handle)
        column = 0
        used = 0
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }
}
