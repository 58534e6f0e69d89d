import FleetAuthLocking
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// SQLite connections to one file, lent by async-kit's `EventLoopConnectionPool`, each set up
/// for durable, concurrent use: WAL journal, `synchronous=NORMAL` (a committed row survives
/// `kill -9`), a busy timeout so that writers from other processes wait instead of failing,
/// foreign keys on, and temporary data (such as the journal that undoes one statement of a
/// transaction) in memory.
///
/// The connections run on a thread pool of their own, one thread per connection: on the shared
/// `NIOThreadPool.singleton` (two threads on a two-core machine, also busy with bcrypt) two
/// statements sleeping in SQLite's busy handler could take every thread while the transaction
/// they wait for had none left to finish on, and fail with "database is locked".
final class SQLiteConnectionPool: SQLConnectionLender, @unchecked Sendable {
    // @unchecked: async-kit does not mark `EventLoopConnectionPool` Sendable, but it keeps its
    // state on its event loop and every method it has hops there first. The rest is Sendable.

    /// How long a statement waits for another writer's lock before failing.
    static let busyTimeoutMilliseconds = 5000

    /// Opens a connection to the file at a path, on a thread pool; the pool then sets it up.
    typealias ConnectionOpener =
        @Sendable (_ path: String, _ threadPool: NIOThreadPool, _ logger: Logger) async throws -> SQLiteConnection

    /// What async-kit's pool opens its connections with.
    private struct Source: ConnectionPoolSource {
        let path: String
        let threadPool: NIOThreadPool
        let opener: ConnectionOpener
        /// The pool's ``SQLiteConnectionPool/open(path:size:checkpointPages:logger:opener:)``.
        let checkpointPages: Int?
        /// The connections being opened: the pool closes once none is, so that none is set up
        /// on a thread pool that has stopped (it could then not be closed either).
        let opening: InFlight

        func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
            guard opening.enter() else {
                return eventLoop.makeFailedFuture(DatabaseError("the database is closed"))
            }
            let promise = eventLoop.makePromise(of: SQLiteConnection.self)
            // Counted until the pool has taken the connection: its callbacks on this future,
            // added after this one, run before a task queued here.
            promise.futureResult.whenComplete { _ in eventLoop.execute { opening.leave() } }
            promise.completeWithTask {
                let connection = try await opener(path, threadPool, logger)
                do {
                    try await SQLiteConnectionPool.configure(connection, checkpointPages: checkpointPages)
                } catch {
                    try? await connection.close().get()
                    throw error
                }
                return connection
            }
            return promise.futureResult
        }
    }

    /// The event loop every pool keeps its state on: one of its own, since a lease or a release
    /// that queued behind the servers' busy loops would hold up every write after it.
    private static let eventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    private let pool: EventLoopConnectionPool<Source>
    private let threadPool: NIOThreadPool
    /// The connections being opened (``Source/opening``).
    private let opening: InFlight
    /// The connections lent and not yet back: the pool closes once none is, so that every
    /// connection is closed while its thread pool still runs.
    private let lent = InFlight()
    private let logger: Logger

    private init(
        pool: EventLoopConnectionPool<Source>, threadPool: NIOThreadPool, opening: InFlight, logger: Logger
    ) {
        self.pool = pool
        self.threadPool = threadPool
        self.opening = opening
        self.logger = logger
    }

    /// Opens a pool of at most `size` connections to the file at `path`, creating it when
    /// missing, with `opener`; one connection opens now, so that a file SQLite cannot use fails
    /// here rather than at first use. Its commits copy the WAL back into the file (a checkpoint)
    /// once it holds `checkpointPages` pages (SQLite's 1,000 when `nil`).
    static func open(
        path: String, size: Int, checkpointPages: Int? = nil, logger: Logger,
        opener: @escaping ConnectionOpener = openConnection
    ) async throws(DatabaseError) -> SQLiteConnectionPool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw DatabaseError("cannot open SQLite database \(path): folder \(folder) does not exist")
        }
        // Created readable by its owner only: servers keep password and token hashes in it
        // (SQLite gives its -wal and -shm files the same mode).
        if !FileManager.default.fileExists(atPath: path),
            !FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            !FileManager.default.fileExists(atPath: path)
        {
            throw DatabaseError("cannot create SQLite database \(path) in folder \(folder)")
        }
        let threadPool = NIOThreadPool(numberOfThreads: max(1, size))
        threadPool.start()
        // A wait for a connection ends when a lent one comes back, as each does once its
        // statements end (each bounded by the busy timeout): async-kit's timeout stays out of it.
        let opening = InFlight()
        let pool = EventLoopConnectionPool(
            source: Source(
                path: path, threadPool: threadPool, opener: opener, checkpointPages: checkpointPages, opening: opening),
            maxConnections: max(1, size),
            requestTimeout: .hours(1), pruneInterval: nil, logger: logger, on: eventLoop)
        let opened = SQLiteConnectionPool(pool: pool, threadPool: threadPool, opening: opening, logger: logger)
        do {
            try await opened.withConnection { _ in }
        } catch {
            await opened.close()
            throw DatabaseError("cannot open SQLite database \(path): \(error)")
        }
        return opened
    }

    /// Opens one connection to `path` (the pool sets it up).
    @Sendable static func openConnection(path: String, threadPool: NIOThreadPool, logger: Logger) async throws
        -> SQLiteConnection
    {
        try await SQLiteConnection.open(
            storage: .file(path: path),
            threadPool: threadPool,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any()
        )
    }

    /// Sets a connection up for the pool: the settings above, and the WAL's checkpoint on
    /// commit at `checkpointPages` pages (SQLite's default when `nil`).
    private static func configure(_ connection: SQLiteConnection, checkpointPages: Int?) async throws {
        let journal = try await connection.query("PRAGMA journal_mode = WAL")
        guard journal.first?.column("journal_mode")?.string?.lowercased() == "wal" else {
            throw DatabaseError("the file system does not support SQLite's WAL journal")
        }
        _ = try await connection.query("PRAGMA synchronous = NORMAL")
        _ = try await connection.query("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
        _ = try await connection.query("PRAGMA foreign_keys = ON")
        _ = try await connection.query("PRAGMA temp_store = MEMORY")
        if let checkpointPages {
            _ = try await connection.query("PRAGMA wal_autocheckpoint = \(checkpointPages)")
        }
    }

    func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        guard lent.enter() else { throw DatabaseError("the database is closed") }
        let connection: SQLiteConnection
        do {
            connection = try await pool.requestConnection(logger: logger).get()
        } catch {
            lent.leave()
            throw error
        }
        do {
            let result = try await body(connection.sql(queryLogLevel: nil))
            giveBack(connection)
            return result
        } catch let unusable as ConnectionLeftUnusable {
            // Closed, it is not lent again: async-kit's pool opens another in its place.
            try? await connection.close().get()
            giveBack(connection)
            throw unusable.cause
        } catch {
            giveBack(connection)
            throw error
        }
    }

    private func giveBack(_ connection: SQLiteConnection) {
        pool.releaseConnection(connection, logger: logger)
        lent.leave()
    }

    /// Refuses later leases, waits for the lent connections to come back and for those being
    /// opened, then closes every connection and stops the thread pool (also from a cancelled
    /// task).
    func close() async {
        await lent.close()
        // A connection asked for by a lease that another one's return served may still be
        // opening: it joins the pool before the pool closes them all.
        await opening.close()
        // The pool's event loop runs the releases before this.
        try? await pool.close().get()
        try? await threadPool.shutdownGracefully()
    }
}
