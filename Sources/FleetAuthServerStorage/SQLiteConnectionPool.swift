import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit

/// A fixed set of SQLite connections to one file, each set up for durable, concurrent use:
/// WAL journal, `synchronous=NORMAL` (a committed row survives `kill -9`), a busy timeout
/// so that writers from other processes wait instead of failing, foreign keys on, and
/// temporary data (such as the journal that undoes one statement of a transaction) in memory.
///
/// The pool runs its connections on a thread pool of its own, one thread per connection: on
/// the shared `NIOThreadPool.singleton` (two threads on a two-core machine, also busy with
/// bcrypt) two statements sleeping in SQLite's busy handler could take every thread while the
/// transaction they wait for had none left to finish on, and fail with "database is locked".
actor SQLiteConnectionPool: SQLConnectionLender {
    /// How long a statement waits for another writer's lock before failing.
    static let busyTimeoutMilliseconds = 5000

    /// Opens a connection to the file at a path, on a thread pool, set up for the pool.
    typealias ConnectionOpener =
        @Sendable (_ path: String, _ threadPool: NIOThreadPool, _ logger: Logger) async throws -> SQLiteConnection

    private var idle: [SQLiteConnection]
    private var openConnections: Int
    private var waiting: [CheckedContinuation<SQLiteConnection, any Error>] = []
    private var isClosed = false
    private let threadPool: NIOThreadPool
    private let path: String
    private let logger: Logger
    private let opener: ConnectionOpener

    private init(
        connections: [SQLiteConnection], threadPool: NIOThreadPool, path: String, logger: Logger,
        opener: @escaping ConnectionOpener
    ) {
        self.idle = connections
        self.openConnections = connections.count
        self.threadPool = threadPool
        self.path = path
        self.logger = logger
        self.opener = opener
    }

    /// Opens `size` connections to the file at `path`, creating it when missing, with `opener`
    /// (also when one is replaced).
    static func open(
        path: String, size: Int, logger: Logger, opener: @escaping ConnectionOpener = openConnection
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
        var opened: [SQLiteConnection] = []
        do {
            for _ in 0..<max(1, size) {
                opened.append(try await opener(path, threadPool, logger))
            }
        } catch {
            for connection in opened { try? await connection.close().get() }
            try? await threadPool.shutdownGracefully()
            throw DatabaseError("cannot open SQLite database \(path): \(error)")
        }
        return SQLiteConnectionPool(
            connections: opened, threadPool: threadPool, path: path, logger: logger, opener: opener)
    }

    /// Opens one connection to `path` and sets it up.
    @Sendable static func openConnection(path: String, threadPool: NIOThreadPool, logger: Logger) async throws
        -> SQLiteConnection
    {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path),
            threadPool: threadPool,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any()
        )
        do {
            try await configure(connection)
        } catch {
            try? await connection.close().get()
            throw error
        }
        return connection
    }

    private static func configure(_ connection: SQLiteConnection) async throws {
        let journal = try await connection.query("PRAGMA journal_mode = WAL")
        guard journal.first?.column("journal_mode")?.string?.lowercased() == "wal" else {
            throw DatabaseError("the file system does not support SQLite's WAL journal")
        }
        _ = try await connection.query("PRAGMA synchronous = NORMAL")
        _ = try await connection.query("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
        _ = try await connection.query("PRAGMA foreign_keys = ON")
        _ = try await connection.query("PRAGMA temp_store = MEMORY")
    }

    nonisolated func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let connection = try await lease()
        do {
            let result = try await body(connection.sql(queryLogLevel: nil))
            await release(connection)
            return result
        } catch let unusable as ConnectionLeftUnusable {
            await replace(connection)
            throw unusable.cause
        } catch {
            await release(connection)
            throw error
        }
    }

    /// Closes `connection` and lends a fresh one in its place; when none can be opened (or the
    /// pool is closing), goes on with one connection fewer.
    private func replace(_ connection: SQLiteConnection) async {
        try? await connection.close().get()
        if !isClosed {
            do {
                await release(try await opener(path, threadPool, logger))
                return
            } catch {
                logger.error("cannot reopen an SQLite connection", metadata: ["error": "\(error)"])
            }
        }
        await countClosedConnection()
    }

    private func lease() async throws -> SQLiteConnection {
        guard !isClosed else { throw DatabaseError("the database is closed") }
        if let connection = idle.popLast() { return connection }
        return try await withCheckedThrowingContinuation { waiting.append($0) }
    }

    private func release(_ connection: SQLiteConnection) async {
        if isClosed {
            await closeConnection(connection)
        } else if waiting.isEmpty {
            idle.append(connection)
        } else {
            waiting.removeFirst().resume(returning: connection)
        }
    }

    /// Closes the idle connections now and the leased ones when they come back; later
    /// leases fail.
    func close() async {
        isClosed = true
        for waiter in waiting { waiter.resume(throwing: DatabaseError("the database is closed")) }
        waiting.removeAll()
        let closing = idle
        idle.removeAll()
        for connection in closing { await closeConnection(connection) }
    }

    /// Closes `connection` (even from a cancelled task: the future-based close does not give
    /// up on cancellation, and SQLiteNIO asserts that connections are closed).
    private func closeConnection(_ connection: SQLiteConnection) async {
        try? await connection.close().get()
        await countClosedConnection()
    }

    /// Counts one open connection fewer. With none left the pool is closed (later and waiting
    /// leases fail) and its thread pool stopped.
    private func countClosedConnection() async {
        openConnections -= 1
        guard openConnections == 0 else { return }
        if !isClosed { await close() }
        try? await threadPool.shutdownGracefully()
    }
}
