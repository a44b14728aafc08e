import GRDB
import GRDBSQLite

/// One prepared INSERT stepped directly through SQLite's C interface: the snapshot writes
/// millions of rows, and building GRDB `StatementArguments` per row costs more than the
/// insert itself (see the benchmark figures in the README). Errors read like GRDB's.
struct BulkInsert {
    private let statement: Statement
    private let handle: OpaquePointer
    private var column: Int32 = 0

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        handle = statement.sqliteStatement
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func bind(_ text: String?) throws {
        column += 1
        guard var text else {
            try check(sqlite3_bind_null(handle, column))
            return
        }
        let code = text.withUTF8 { bytes in
            sqlite3_bind_text(handle, column, bytes.baseAddress, Int32(bytes.count), Self.transient)
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
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }
}
