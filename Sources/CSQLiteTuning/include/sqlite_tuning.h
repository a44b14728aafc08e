#ifndef GRANDFATHER_SQLITE_TUNING_H
#define GRANDFATHER_SQLITE_TUNING_H

/// Puts the process-wide SQLite library in multi-thread mode (no mutex per API call; GRDB
/// serializes each connection itself and supports only this mode) and turns off its memory
/// statistics (a global lock on every allocation). sqlite3_config is variadic, which Swift
/// cannot call, hence this shim. It must run before the first connection opens; returns
/// SQLite's result code (SQLITE_MISUSE if the library was already initialised).
int grandfather_sqlite_tune(void);

#endif
