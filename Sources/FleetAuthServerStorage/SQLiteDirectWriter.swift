// The SQLite library SQLiteNIO is built on (the same copy: two copies of SQLite in one process
// would drop each other's POSIX locks on the file).
import FleetAuthLocking
import VaporCSQLite

/// Writes to an SQLite file on the calling thread: for a server that commits on the thread that
/// accepted the writes (the local Fleet Engine commits location updates on the event loop that
/// read them), without SQLiteNIO's hop to a thread pool and back.
///
/// One connection, used by one call at a time, set up as the pool's connections are (WAL's
/// `synchronous=NORMAL`, so a commit survives `kill -9`; the statement journal in memory;
/// foreign keys on), except that it never waits: when another connection or process holds the
/// write lock, or anything fails, the call fails at once with
/// ``SQLiteDirectReader/Unavailable`` having changed nothing, and the caller writes through the
/// pool instead. Statements are prepared once, up to ``preparedCapacity`` of them.
final class SQLiteDirectWriter: Sendable {
    /// The most statements kept prepared; others are prepared for each call.
    static let preparedCapacity = 64

    private let path: String
    /// The connection, once opened; whether ``close()`` was called; the size cap of
    /// ``cap(atPages:)``, kept for a connection opened later.
    private let state = Locked<(connection: Connection?, isClosed: Bool, pageCap: Int?)>((nil, false, nil))

    /// A writer to the SQLite file at `path` (which must exist, in WAL mode).
    init(path: String) {
        self.path = path
    }

    /// Runs `statements` (each SQL with its binds), all or none: one alone is atomic by itself,
    /// several run in one transaction.
    ///
    /// - Throws: ``SQLiteDirectReader/Unavailable`` when a lock would make it wait, a statement
    ///   fails, or the writer is closed; nothing of `statements` is then written.
    func execute(_ statements: [(sql: String, binds: [SQLiteDirectReader.Value])]) throws(SQLiteDirectReader
        .Unavailable)
    {
        let outcome = state.withLock { state in
            Result { () throws(SQLiteDirectReader.Unavailable) in
                guard !state.isClosed else { throw SQLiteDirectReader.Unavailable(code: SQLITE_MISUSE) }
                let connection: Connection
                if let open = state.connection {
                    connection = open
                } else {
                    connection = try Connection(path: path, pageCap: state.pageCap)
                    state.connection = connection
                }
                do throws(SQLiteDirectReader.Unavailable) {
                    try connection.execute(statements)
                } catch {
                    // A connection left inside a transaction (its ROLLBACK failed) would hold
                    // the write lock: it is closed, and the next call opens another.
                    if connection.isInTransaction { state.connection = nil }
                    throw error
                }
            }
        }
        try outcome.get()
    }

    /// Caps the file at `pages` pages for this writer's writes, as `PRAGMA max_page_count` caps
    /// a connection's: one needing a page more then fails as on a full disk.
    func cap(atPages pages: Int) throws(SQLiteDirectReader.Unavailable) {
        let outcome = state.withLock { state in
            state.pageCap = pages
            return Result { () throws(SQLiteDirectReader.Unavailable) in try state.connection?.cap(atPages: pages) }
        }
        try outcome.get()
    }

    /// Closes the connection; later calls fail.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.connection = nil
        }
    }

    /// The connection and its prepared statements; the writer's lock makes it `Sendable`.
    private final class Connection: @unchecked Sendable {
        private let handle: OpaquePointer
        private var prepared: [String: OpaquePointer] = [:]

        /// Opens the file at `path` for writing, set up as the pool's connections are but never
        /// waiting for a lock, capped at `pageCap` pages when given.
        init(path: String, pageCap: Int?) throws(SQLiteDirectReader.Unavailable) {
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
            guard opened == SQLITE_OK, let handle else {
                sqlite_nio_sqlite3_close(handle)
                throw SQLiteDirectReader.Unavailable(code: opened)
            }
            self.handle = handle
            let setUp = sqlite_nio_sqlite3_exec(
                handle,
                "PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 0",
                nil, nil, nil)
            guard setUp == SQLITE_OK else {
                sqlite_nio_sqlite3_close(handle)
                throw SQLiteDirectReader.Unavailable(code: setUp)
            }
            if let pageCap {
                do {
                    try cap(atPages: pageCap)
                } catch {
                    sqlite_nio_sqlite3_close(handle)
                    throw error
                }
            }
        }

        /// Caps the file at `pages` pages for this connection's writes.
        func cap(atPages pages: Int) throws(SQLiteDirectReader.Unavailable) {
            let result = sqlite_nio_sqlite3_exec(handle, "PRAGMA max_page_count = \(pages)", nil, nil, nil)
            guard result == SQLITE_OK else { throw SQLiteDirectReader.Unavailable(code: result) }
        }

        /// Whether a transaction is open on the connection.
        var isInTransaction: Bool { sqlite_nio_sqlite3_get_autocommit(handle) == 0 }

        /// Finalizes the prepared statements and closes the connection.
        deinit {
            for statement in prepared.values { sqlite_nio_sqlite3_finalize(statement) }
            sqlite_nio_sqlite3_close(handle)
        }

        /// See ``SQLiteDirectWriter/execute(_:)``.
        func execute(_ statements: [(sql: String, binds: [SQLiteDirectReader.Value])]) throws(SQLiteDirectReader
            .Unavailable)
        {
            guard statements.count > 1 else {
                if let only = statements.first { try run(only.sql, binds: only.binds) }
                return
            }
            try run("BEGIN IMMEDIATE", binds: [])
            do {
                for statement in statements { try run(statement.sql, binds: statement.binds) }
                try run("COMMIT", binds: [])
            } catch {
                sqlite_nio_sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
                throw error
            }
        }

        /// Runs `sql` with `binds` to its end.
        private func run(_ sql: String, binds: [SQLiteDirectReader.Value]) throws(SQLiteDirectReader.Unavailable) {
            let kept = prepared[sql]
            let statement: OpaquePointer
            if let kept {
                statement = kept
            } else {
                statement = try SQLiteDirectReader.prepare(sql, on: handle)
            }
            defer {
                if kept == nil, prepared.count < SQLiteDirectWriter.preparedCapacity {
                    prepared[sql] = statement
                } else if kept == nil {
                    sqlite_nio_sqlite3_finalize(statement)
                }
            }
            defer {
                // Kept statements hold no copy of the batch they wrote.
                sqlite_nio_sqlite3_reset(statement)
                sqlite_nio_sqlite3_clear_bindings(statement)
            }
            try SQLiteDirectReader.Value.bind(binds, to: statement)
            var stepped = sqlite_nio_sqlite3_step(statement)
            while stepped == SQLITE_ROW { stepped = sqlite_nio_sqlite3_step(statement) }
            guard stepped == SQLITE_DONE else { throw SQLiteDirectReader.Unavailable(code: stepped) }
        }
    }
}
