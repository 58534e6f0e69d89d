import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import SQLiteKit

/// An open database, SQLite or PostgreSQL, spoken to through SQLKit.
///
/// Reads go through ``sql`` and may run concurrently; a single statement that writes goes
/// through ``writes``, and a group of statements that must all happen or none through
/// ``transaction(_:)``. Call ``shutdown()`` when done.
package final class ServerDatabase: Sendable {
    /// Which SQL dialect ``sql`` speaks, for the rare statement that differs.
    package let kind: DatabaseKind
    /// Where the database is, password hidden in its description.
    package let location: DatabaseLocation
    /// The database for reads; each runs on a pooled connection.
    package let sql: any SQLDatabase
    /// The database for single statements that write (`RETURNING` rows included). On SQLite
    /// each runs on the one connection that transactions run on, in turn with them: a write
    /// made on a reading connection would wait for the file lock in SQLite's busy handler,
    /// which polls, and a steady queue of transactions could keep it waiting until it fails
    /// with "database is locked". On PostgreSQL, a pooled connection.
    package let writes: any SQLDatabase
    private let transactions: any SQLConnectionLender
    /// SQLite's reads on the calling thread, for ``first(_:)``; `nil` on PostgreSQL.
    private let directReader: SQLiteDirectReader?
    /// PostgreSQL's changes as this process hears them; `nil` on SQLite.
    private let changeFeed: PostgresChangeFeed?
    /// PostgreSQL's answers to ``first(_:)`` kept while nothing changes; `nil` on SQLite.
    private let readCache: PostgresReadCache?
    private let close: @Sendable () async -> Void

    private init(
        location: DatabaseLocation,
        sql: any SQLDatabase,
        writes: any SQLDatabase,
        transactions: any SQLConnectionLender,
        directReader: SQLiteDirectReader? = nil,
        changeFeed: PostgresChangeFeed? = nil,
        close: @escaping @Sendable () async -> Void
    ) {
        self.kind = location.kind
        self.location = location
        self.sql = sql
        self.writes = writes
        self.transactions = transactions
        self.directReader = directReader
        self.changeFeed = changeFeed
        self.readCache = changeFeed.map(PostgresReadCache.init(feed:))
        self.close = close
    }

    /// The longest a PostgreSQL statement waits, for a connection and for its answer, before
    /// it fails with ``DatabaseUnavailable``, unless the URL sets another (`?wait_limit=10`).
    package static let postgresWaitLimit = Duration.seconds(4)

    /// How long ``open(_:checkpointPages:logger:)`` waits for PostgreSQL's first answers at
    /// least: longer when the URL lets statements wait longer (`?wait_limit=60`), as a loaded
    /// machine may need.
    static let firstContactLimit = Duration.seconds(10)

    /// Opens the database at `location`, creating an SQLite file when missing, and checks that
    /// it answers. A PostgreSQL server that cannot be reached fails here, not at first use.
    ///
    /// `checkpointPages`, on SQLite: how many pages the WAL holds before a commit copies them back
    /// into the file and syncs both (SQLite's 1,000 when `nil`). A file whose owner calls
    /// ``checkpoint()`` beside its writes sets it high, as a bound: a checkpoint beside the
    /// writes copies only what the WAL held when it began, and the WAL starts over only after
    /// one that copied everything.
    package static func open(_ location: DatabaseLocation, checkpointPages: Int? = nil, logger: Logger)
        async throws(DatabaseError) -> ServerDatabase
    {
        switch location {
        case .sqlite(let path):
            try await openSQLite(path: path, location: location, checkpointPages: checkpointPages, logger: logger)
        case .postgres(let url): try await openPostgres(url: url, location: location, logger: logger)
        }
    }

    /// The SQLite file at `path`: two pooled readers, one pooled writer, and the direct reader
    /// of the calling thread.
    private static func openSQLite(
        path: String, location: DatabaseLocation, checkpointPages: Int?, logger: Logger
    ) async throws(DatabaseError) -> ServerDatabase {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        // Readers share a few connections; writers queue for one, so that two
        // transactions of this process never wait on each other's file lock.
        let readers = try await SQLiteConnectionPool.open(path: path, size: 2, logger: logger)
        let writer: SQLiteConnectionPool
        do {
            writer = try await SQLiteConnectionPool.open(
                path: path, size: 1, checkpointPages: checkpointPages, logger: logger)
        } catch {
            await readers.close()
            throw error
        }
        let directReader = SQLiteDirectReader(path: path)
        return ServerDatabase(
            location: location,
            sql: PooledSQLDatabase(lender: readers, logger: logger, eventLoop: eventLoop, dialect: SQLiteDialect()),
            writes: PooledSQLDatabase(
                lender: writer, logger: logger, eventLoop: eventLoop, dialect: SQLiteDialect()),
            transactions: writer,
            directReader: directReader,
            close: {
                directReader.close()
                await readers.close()
                await writer.close()
            }
        )
    }

    /// The PostgreSQL database at `url`, once a first connection of its own answered.
    private static func openPostgres(url: String, location: DatabaseLocation, logger: Logger)
        async throws(DatabaseError) -> ServerDatabase
    {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let configuration = try PostgresLender.configuration(url: url, location: location)
        // One connection of its own first: a server that refuses it in words (a password
        // refused, no such database) says why at once, where the pool would retry silently
        // until the wait below ran out. The first connection, on a busy machine, may take
        // longer than a statement may.
        let firstContactLimit = max(Self.firstContactLimit, configuration.waitLimit)
        switch await PostgresClients.ask(configuration.probe, within: firstContactLimit, logger: logger) {
        case .success: break
        case .failure(let error):
            throw DatabaseError("cannot reach PostgreSQL at \(location): \(Self.describe(error))")
        case nil:
            throw DatabaseError(
                "cannot reach PostgreSQL at \(location): no answer within \(firstContactLimit)")
        }
        let clients = PostgresClients(
            configuration: configuration.client, probe: configuration.probe, probeLimit: configuration.waitLimit,
            logger: logger)
        let feed = PostgresChangeFeed(clients: clients, logger: logger)
        let lender = PostgresLender(clients: clients, limit: configuration.waitLimit)
        let pooled = PooledSQLDatabase(
            lender: lender, logger: logger, eventLoop: eventLoop, dialect: PostgresDialect())
        let database = ServerDatabase(
            location: location,
            sql: pooled,
            writes: PooledSQLDatabase(
                lender: lender, logger: logger, eventLoop: eventLoop, dialect: PostgresDialect(),
                afterWrite: feed.changed),
            transactions: lender,
            changeFeed: feed,
            close: {
                await feed.stop()
                await clients.shutdown()
            }
        )
        do {
            try await PostgresLender(clients: clients, limit: firstContactLimit).withConnection {
                try await $0.raw("SELECT 1").run()
            }
        } catch {
            await database.shutdown()
            throw DatabaseError("cannot reach PostgreSQL at \(location): \(Self.describe(error))")
        }
        return database
    }

    /// A read that could not be made on the calling thread without waiting: always on
    /// PostgreSQL; on SQLite when a lock or the WAL's recovery would make it wait. Make it with
    /// ``first(_:)`` instead.
    package struct UnavailableWithoutWaiting: Error {}

    /// The first row `query` answers, for a read that runs on every request.
    ///
    /// On SQLite it is read on the calling thread, its statement prepared once (see
    /// ``SQLiteDirectReader``): no hop to a thread pool and back, no parsing of the SQL each
    /// time. When that cannot be done without waiting, and on PostgreSQL, it is read through
    /// the pool like any query. Either way it sees every commit made before it began.
    ///
    /// An answer read before is given again while no commit has come since: on SQLite, while the
    /// file's WAL says so; on PostgreSQL, while the change feed hears no change (the tables that
    /// matter notify from their triggers, and this process's own writes count at once) and is
    /// listening at all. So on PostgreSQL, read through here only tables whose triggers notify
    /// ``PostgresChangeSignal/channel`` of every change another process may make. A query whose answer depends on anything but the database and its binds
    /// (the time, `random()`) must compare that itself, as the token server's session expiry is
    /// compared.
    package func first(_ query: SQLQueryString) async throws -> (any SQLRow)? {
        if let readCache {
            changeFeed?.startListening()
            guard let (sql, binds) = try? direct(query) else { return try await self.sql.raw(query).first() }
            let key = PostgresReadCache.Key(sql: sql, binds: binds)
            if let answer = readCache.answer(to: key) { return answer }
            return try await readCache.reading(key) { try await self.sql.raw(query).first() }
        }
        do {
            return try firstWithoutWaiting(query)
        } catch {
            return try await sql.raw(query).first()
        }
    }

    /// Whether ``first(_:)`` may answer from memory on PostgreSQL now: it has been used, and
    /// changes can be heard. Always `false` on SQLite, whose memory follows the file itself.
    package var hearsChanges: Bool {
        changeFeed?.generation != nil
    }

    /// Whether the database answers a trivial statement now (on PostgreSQL within
    /// ``postgresWaitLimit``), and whether its changes are heard.
    package func health() async -> DatabaseHealth {
        let feed = changeFeed?.condition
        do {
            try await sql.raw("SELECT 1").run()
            return .answering(changeFeed: feed)
        } catch let unavailable as DatabaseUnavailable {
            return .unavailable(unavailable.description, changeFeed: feed)
        } catch {
            return .unavailable("the database refused a trivial statement (\(Self.describe(error)))", changeFeed: feed)
        }
    }

    /// The first row `query` answers, read on the calling thread as ``first(_:)`` reads it on
    /// SQLite, for a caller that has other work to do when it cannot be had at once.
    ///
    /// - Throws: ``UnavailableWithoutWaiting`` on PostgreSQL, and on SQLite when the read would wait or fails
    ///   (``first(_:)`` then waits, or reports the failure).
    package func firstWithoutWaiting(_ query: SQLQueryString) throws(UnavailableWithoutWaiting) -> (any SQLRow)? {
        guard let directReader else { throw UnavailableWithoutWaiting() }
        let (sql, binds) = try direct(query)
        do {
            return try directReader.firstRow(sql, binds: binds).map(SQLiteDirectRow.init(values:))
        } catch {
            throw UnavailableWithoutWaiting()
        }
    }

    /// `expression`'s SQL and binds as SQLite's direct calls take them.
    private func direct(_ expression: any SQLExpression) throws(UnavailableWithoutWaiting) -> (
        sql: String, binds: [SQLiteDirectReader.Value]
    ) {
        var serializer = SQLSerializer(database: sql)
        expression.serialize(to: &serializer)
        let binds = serializer.binds.compactMap(SQLiteDirectReader.Value.init(bind:))
        guard binds.count == serializer.binds.count else { throw UnavailableWithoutWaiting() }
        return (serializer.sql, binds)
    }

    /// Runs `body` in a transaction: all of its statements take effect, or none does (an error
    /// thrown by `body` rolls back and is rethrown). SQLite transactions take the write lock at
    /// once (`BEGIN IMMEDIATE`), so they never fail half-way for want of it.
    package func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let begin = kind == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        return try await DatabaseUnavailable.refusingStorageFailures {
            try await self.transactions.withConnection { [changeFeed] connection in
                try await connection.raw(SQLQueryString(begin)).run()
                do {
                    let result = try await body(connection)
                    do {
                        try await connection.raw("COMMIT").run()
                    } catch  where PostgresLender.isConnectionLost(error) {
                        throw DatabaseUnavailable.commitUnconfirmed
                    }
                    changeFeed?.changed()
                    return result
                } catch let failure {
                    // On a lost connection the server has rolled back already (before a COMMIT, so
                    // the transaction may run again on another connection), or the COMMIT's fate is
                    // unknown; a ROLLBACK sent there could be written after PostgresNIO let go of the
                    // channel and never be answered. The connection is closed instead.
                    if PostgresLender.isConnectionLost(failure) {
                        throw ConnectionLeftUnusable(cause: DatabaseUnavailable.connectionLost)
                    }
                    if failure as? DatabaseUnavailable == .commitUnconfirmed {
                        throw ConnectionLeftUnusable(cause: failure)
                    }
                    do {
                        try await connection.raw("ROLLBACK").run()
                    } catch {
                        throw ConnectionLeftUnusable(cause: failure)
                    }
                    throw failure
                }
            }
        }
    }

    /// Runs one statement where transactions run (SQLite: the one writer connection;
    /// PostgreSQL: a pooled connection). A single statement takes effect whole or not at all
    /// by itself, so it needs no transaction around it: no `BEGIN` and `COMMIT` round trips,
    /// and no journal SQLite keeps to undo one statement of many.
    package func executeAtomically(_ statement: any SQLExpression) async throws {
        try await writes.execute(sql: statement) { _ in }
    }

    /// Runs one statement that writes rows no read through ``first(_:)`` depends on, such as
    /// an append-only record: on SQLite where every write runs (``writes``); on PostgreSQL on a
    /// pooled connection without telling the change feed, so that answers kept in memory stay.
    package func append(_ statement: any SQLExpression) async throws {
        try await (kind == .postgres ? sql : writes).execute(sql: statement) { _ in }
    }

    /// Copies the pages SQLite's WAL holds back into the file and syncs both. Returns whether
    /// all of the WAL was copied, so that the next write starts it over: not on PostgreSQL,
    /// which has none, nor while a read that began earlier still needs the WAL's pages.
    ///
    /// The bulk is copied on a reading connection, without waiting for readers or the writer (a
    /// passive checkpoint), so that no commit waits for it. What was committed meanwhile is then
    /// copied by the writer itself, between two of its writes (under load some hundreds of
    /// pages and the two syncs): SQLite starts the WAL over only once a checkpoint copied all
    /// of it, which under steady writes the first one never does, and the WAL would grow until
    /// a commit copied it.
    package func checkpoint() async throws -> Bool {
        guard kind == .sqlite else { return false }
        try await sql.raw("PRAGMA wal_checkpoint(PASSIVE)").run()
        guard let outcome = try await writes.raw("PRAGMA wal_checkpoint(PASSIVE)").first() else { return false }
        let pages = try outcome.decode(column: "log", as: Int.self)
        return try outcome.decode(column: "busy", as: Int.self) == 0
            && outcome.decode(column: "checkpointed", as: Int.self) == pages
    }

    /// Caps an SQLite file at `pages` pages (its present size when `nil`) for the connection
    /// that writes: a write that needs a page more then fails as on a full disk. Nothing on
    /// PostgreSQL.
    package func capSQLiteSize(atPages pages: Int?) async throws {
        guard kind == .sqlite else { return }
        try await transaction { database in
            let current =
                try await database.raw("PRAGMA page_count").first()?.decode(column: "page_count", as: Int.self) ?? 1
            let cap = pages ?? current
            try await database.raw(SQLQueryString("PRAGMA max_page_count = \(unsafeRaw: String(cap))")).run()
        }
    }

    /// Closes every connection. Call once, after the last query.
    package func shutdown() async {
        await close()
    }

    /// A description of a driver error that names what failed without repeating connection
    /// details or query parameters.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.description }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "\(error.code)"
        }
        return String(describing: type(of: error))
    }
}
