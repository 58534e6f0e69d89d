import FleetAuthLocking
import Foundation
// The SQLite library SQLiteNIO is built on (the same copy: two copies of SQLite in one process
// would drop each other's POSIX locks on the file).
import VaporCSQLite

/// Reads one row from an SQLite file on the calling thread, each statement prepared once per
/// connection: for the query a server runs on every request, without SQLiteNIO's hop to a
/// thread pool and back (two thread wake-ups) and without parsing the SQL again each time.
///
/// A read in WAL mode does not wait for writers. In the rare case that it would (another
/// process recovering the WAL, a file that is not in WAL mode), the read fails at once with
/// ``SQLiteDirectReader/Unavailable`` instead of blocking the caller, and the caller reads
/// through the pool. Each read is a transaction of its own, ended before the call returns, so it
/// sees every commit made before it began, by any connection or process.
///
/// A read repeated while the database is unchanged is answered from memory, without SQLite's
/// work or its file locks: each connection keeps its answers until the WAL index shows a
/// commit (see ``SQLiteWALIndex``), which every commit, of any process, rewrites before it
/// returns. So an answer from memory is still one a read from the file would give.
///
/// Connections are opened as calls need them: a call holds one for its whole (synchronous)
/// duration, so there are never more than the threads that read at once.
final class SQLiteDirectReader: Sendable {
    /// A read that could not be made here; the caller reads through the pool instead.
    struct Unavailable: Error {
        /// SQLite's result code.
        let code: Int32
    }

    /// A value bound to a statement's `?` or read from a column.
    enum Value: Sendable, Hashable {
        case text(String)
        case integer(Int64)
        case blob(Data)
        case null

        /// A query's bind as a value, when it is text, bytes or an integer that fits; else `nil`.
        init?(bind: any Encodable & Sendable) {
            switch bind {
            case let text as String: self = .text(text)
            // The common integer first: a cast to a concrete type is cheaper than to a protocol.
            case let number as Int64: self = .integer(number)
            case let bytes as Data: self = .blob(bytes)
            case let number as any BinaryInteger:
                guard let fitting = Int64(exactly: number) else { return nil }
                self = .integer(fitting)
            default: return nil
            }
        }

        /// Binds `values` to the `?`s of `statement`, in order.
        static func bind(_ values: [Value], to statement: OpaquePointer) throws(Unavailable) {
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let bound =
                    switch value {
                    case .text(let text):
                        sqlite_nio_sqlite3_bind_text64(
                            statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
                    case .integer(let number): sqlite_nio_sqlite3_bind_int64(statement, index, number)
                    case .blob(let bytes):
                        bytes.withUnsafeBytes {
                            sqlite_nio_sqlite3_bind_blob64(
                                statement, index, $0.baseAddress, UInt64($0.count), transient)
                        }
                    case .null: sqlite_nio_sqlite3_bind_null(statement, index)
                    }
                guard bound == SQLITE_OK else { throw Unavailable(code: bound) }
            }
        }
    }

    private let path: String
    /// Connections not in use, and whether ``close()`` was called.
    private let state = Locked<(idle: [Connection], isClosed: Bool)>(([], false))

    /// A reader of the SQLite file at `path` (which must exist and be in WAL mode).
    init(path: String) {
        self.path = path
    }

    /// The first row of `sql` with `binds`, by column name; `nil` when there is none.
    ///
    /// - Throws: ``Unavailable`` when the read cannot be made without waiting, fails, or the
    ///   reader is closed.
    func firstRow(_ sql: String, binds: [Value]) throws(Unavailable) -> [String: Value]? {
        let lent = state.withLock { state -> (connection: Connection?, isClosed: Bool) in
            (state.isClosed ? nil : state.idle.popLast(), state.isClosed)
        }
        guard !lent.isClosed else { throw Unavailable(code: SQLITE_MISUSE) }
        let connection: Connection
        if let idle = lent.connection {
            connection = idle
        } else {
            connection = try Connection(path: path)
        }
        defer {
            state.withLock { state in
                if !state.isClosed { state.idle.append(connection) }
            }
        }
        return try connection.firstRow(sql, binds: binds)
    }

    /// How many statements the idle connections have run on the file; rows given again from
    /// memory are not counted.
    var statementsRun: Int {
        state.withLock { state in state.idle.reduce(0) { $0 + $1.statementsRun } }
    }

    /// Closes the idle connections, and those in use when their read ends; later reads fail.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.idle.removeAll()
        }
    }

    /// One connection and its prepared statements, used by one thread at a time (the reader
    /// lends it out under its lock), which is what makes it `Sendable`.
    private final class Connection: @unchecked Sendable {
        private let handle: OpaquePointer
        private var statements: [String: OpaquePointer] = [:]
        /// Rows kept while the database is unchanged.
        private var rows = SQLiteReadCache(capacity: 4_096)
        /// Where SQLite maps the WAL index, once a read has made it map it.
        private var walIndex: SQLiteWALIndex?
        private var lookedForWALIndex = false
        /// How many statements this connection has run on the file (rows kept not counted).
        private(set) var statementsRun = 0

        /// Opens the file at `path` for reads only, failing rather than waiting for locks.
        init(path: String) throws(Unavailable) {
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
            guard opened == SQLITE_OK, let handle else {
                sqlite_nio_sqlite3_close(handle)
                throw Unavailable(code: opened)
            }
            self.handle = handle
            // Reads only; and a lock that is taken fails at once rather than blocking a thread.
            let setUp = sqlite_nio_sqlite3_exec(
                handle, "PRAGMA query_only = ON; PRAGMA busy_timeout = 0", nil, nil, nil)
            guard setUp == SQLITE_OK else {
                sqlite_nio_sqlite3_close(handle)
                throw Unavailable(code: setUp)
            }
        }

        /// Finalizes the prepared statements and closes the connection.
        deinit {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
            sqlite_nio_sqlite3_close(handle)
        }

        /// The first row of `sql` with `binds`, or `nil`; see ``SQLiteDirectReader/firstRow(_:binds:)``.
        ///
        /// An answer read earlier is given again while the WAL index shows no commit since.
        func firstRow(_ sql: String, binds: [Value]) throws(Unavailable) -> [String: Value]? {
            // Read before the statement's own snapshot, so a kept answer is never older than
            // the header it is kept under.
            let header = walIndex?.header()
            let statement = try prepared(sql)
            if let header {
                return try rows.row(for: SQLiteReadCache.Key(statement: statement, binds: binds), header: header) {
                    () throws(Unavailable) in
                    try read(statement, binds: binds)
                }
            }
            let row = try read(statement, binds: binds)
            if !lookedForWALIndex {
                lookedForWALIndex = true
                walIndex = try findWALIndex()
            }
            return row
        }

        /// The WAL index SQLite mapped for this connection's first read; `nil` when the file is
        /// not in WAL mode (asking SQLite for it then would create one).
        private func findWALIndex() throws(Unavailable) -> SQLiteWALIndex? {
            guard try read(prepared("PRAGMA journal_mode"), binds: [])?["journal_mode"] == .text("wal") else {
                return nil
            }
            return SQLiteWALIndex(of: handle)
        }

        /// The first row of `statement` with `binds`, read from the file.
        private func read(_ statement: OpaquePointer, binds: [Value]) throws(Unavailable) -> [String: Value]? {
            statementsRun += 1
            // Ends the read transaction. (The binds stay until the next read replaces them:
            // clearing them would make SQLite prepare the statement again on the next step.)
            defer { sqlite_nio_sqlite3_reset(statement) }
            try Value.bind(binds, to: statement)
            let stepped = sqlite_nio_sqlite3_step(statement)
            if stepped == SQLITE_DONE { return nil }
            guard stepped == SQLITE_ROW else { throw Unavailable(code: stepped) }
            var row: [String: Value] = [:]
            for column in 0..<sqlite_nio_sqlite3_column_count(statement) {
                let name = String(cString: sqlite_nio_sqlite3_column_name(statement, column))
                row[name] =
                    switch sqlite_nio_sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: .integer(sqlite_nio_sqlite3_column_int64(statement, column))
                    case SQLITE_NULL: .null
                    case SQLITE_BLOB:
                        .blob(
                            Data(
                                bytes: sqlite_nio_sqlite3_column_blob(statement, column),
                                count: Int(sqlite_nio_sqlite3_column_bytes(statement, column))))
                    default:
                        sqlite_nio_sqlite3_column_text(statement, column).map { .text(String(cString: $0)) } ?? .null
                    }
            }
            return row
        }

        /// `sql` prepared once for this connection (SQLite prepares it again by itself after
        /// a schema change).
        private func prepared(_ sql: String) throws(Unavailable) -> OpaquePointer {
            if let statement = statements[sql] { return statement }
            var statement: OpaquePointer?
            let result = sqlite_nio_sqlite3_prepare_v3(
                handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard result == SQLITE_OK, let statement else { throw Unavailable(code: result) }
            statements[sql] = statement
            return statement
        }
    }
}

/// SQLite's "copy the bound bytes" destructor (`SQLITE_TRANSIENT`, a macro Swift cannot import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
