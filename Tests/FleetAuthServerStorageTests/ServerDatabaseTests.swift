import FleetAuthLocking
import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import Testing

@testable import FleetAuthServerStorage

@Suite("ServerDatabase on SQLite")
struct FleetDatabaseTests {
    private func withDatabase(_ body: (ServerDatabase, String) async throws -> Void) async throws {
        try await withTemporaryFolder { folder in
            let location = DatabaseLocation(dataDirectory: folder, fileName: "test.sqlite", databaseURL: nil)
            let database = try await ServerDatabase.open(location, logger: Logger(label: "test"))
            do {
                try await body(database, folder)
            } catch {
                await database.shutdown()
                throw error
            }
            await database.shutdown()
        }
    }

    /// Runs `body` with a pool of `size` connections to a new file, opened by `opener`, and
    /// closes the pool after it (also when it throws: SQLiteNIO traps on a connection dropped
    /// unclosed, which would turn a failing test into a crash).
    private func withPool(
        size: Int, opener: @escaping SQLiteConnectionPool.ConnectionOpener = SQLiteConnectionPool.openConnection,
        _ body: (SQLiteConnectionPool) async throws -> Void
    ) async throws {
        try await withTemporaryFolder { folder in
            let pool = try await SQLiteConnectionPool.open(
                path: folder + "/pool.sqlite", size: size, logger: Logger(label: "test"), opener: opener)
            do {
                try await body(pool)
            } catch {
                await pool.close()
                throw error
            }
            await pool.close()
        }
    }

    private func withTemporaryFolder(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetdb-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(folder)
    }

    private struct Pragma: Decodable { let value: String }

    private func pragma(_ name: String, on database: any SQLDatabase) async throws -> String? {
        let row = try await database.raw(SQLQueryString("PRAGMA \(unsafeRaw: name)")).first()
        return try row.map { row in
            let column = try #require(row.allColumns.first)
            if let number = try? row.decode(column: column, as: Int.self) { return String(number) }
            return try row.decode(column: column, as: String.self)
        }
    }

    @Test("opens in WAL mode, synchronous NORMAL, with a busy timeout and foreign keys")
    func settings() async throws {
        try await withDatabase { database, folder in
            #expect(database.kind == .sqlite)
            #expect(try await pragma("journal_mode", on: database.sql) == "wal")
            #expect(try await pragma("synchronous", on: database.sql) == "1")
            #expect(try await pragma("foreign_keys", on: database.sql) == "1")
            #expect(try await pragma("busy_timeout", on: database.sql) == "5000")
            #expect(try await pragma("temp_store", on: database.sql) == "2")
            // The transaction connection is set up the same way.
            let synchronous = try await database.transaction { try await self.pragma("synchronous", on: $0) }
            #expect(synchronous == "1")
            #expect(FileManager.default.fileExists(atPath: folder + "/test.sqlite"))
        }
    }

    @Test("concurrent writes, plain and in transactions, all land while the shared NIO thread pool is busy")
    func concurrentWritesWhileTheSharedThreadPoolIsBusy() async throws {
        try await withDatabase { database, _ in
            try await database.sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            // Work that holds NIOThreadPool.singleton's threads, as bcrypt does on a login.
            let busy = (0..<8).map { _ in
                Task { try await NIOThreadPool.singleton.runIfActive { usleep(300_000) } }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 0..<40 {
                    group.addTask {
                        if id.isMultiple(of: 2) {
                            try await database.writes.raw("INSERT INTO t (id, name) VALUES (\(bind: id), 'plain')")
                                .run()
                        } else {
                            try await database.transaction { db in
                                try await db.raw("INSERT INTO t (id, name) VALUES (\(bind: id), 'first')").run()
                                try await db.raw("UPDATE t SET name = 'both' WHERE id = \(bind: id)").run()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for task in busy { _ = try await task.value }
            let count = try await database.sql.raw("SELECT COUNT(*) AS n FROM t").first()?.decode(
                column: "n", as: Int.self)
            #expect(count == 40)
        }
    }

    @Test("shutting down from a cancelled task closes every connection")
    func shutdownFromACancelledTask() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetdb-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let location = DatabaseLocation(dataDirectory: folder, fileName: "test.sqlite", databaseURL: nil)
        let database = try await ServerDatabase.open(location, logger: Logger(label: "test"))
        let shutdown = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await database.shutdown()
        }
        await shutdown.value
        await #expect(throws: DatabaseError.self) { try await database.sql.raw("SELECT 1").run() }
    }

    @Test("a failed transaction leaves nothing behind")
    func rollback() async throws {
        struct Boom: Error {}
        try await withDatabase { database, _ in
            try await database.sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            await #expect(throws: Boom.self) {
                try await database.transaction { db in
                    try await db.raw("INSERT INTO t (id, name) VALUES (1, 'one')").run()
                    throw Boom()
                }
            }
            await #expect(throws: (any Error).self) {
                try await database.transaction { db in
                    try await db.raw("INSERT INTO t (id, name) VALUES (2, 'two')").run()
                    try await db.raw("INSERT INTO t (id, name) VALUES (3, NULL)").run()
                }
            }
            let count = try await database.sql.raw("SELECT COUNT(*) AS n FROM t").first(decoding: [String: Int].self)
            #expect(count?["n"] == 0)
        }
    }

    @Test("one statement run atomically lands whole, or not at all when a later row fails")
    func singleStatementIsAtomic() async throws {
        try await withDatabase { database, _ in
            try await database.sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            try await database.executeAtomically(SQLRaw("INSERT INTO t (id, name) VALUES (1, 'one'), (2, 'two')"))
            await #expect(throws: (any Error).self) {
                try await database.executeAtomically(SQLRaw("INSERT INTO t (id, name) VALUES (3, 'three'), (4, NULL)"))
            }
            let ids = try await database.sql.raw("SELECT id FROM t ORDER BY id").all(decoding: [String: Int].self)
                .compactMap { $0["id"] }
            #expect(ids == [1, 2])
        }
    }

    @Test("a connection left inside a transaction is closed and replaced, not lent again")
    func connectionLeftInATransactionIsReplaced() async throws {
        struct Boom: Error {}
        try await withPool(size: 1) { pool in
            await #expect(throws: Boom.self) {
                try await pool.withConnection { db in
                    try await db.raw("BEGIN").run()
                    throw ConnectionLeftUnusable(cause: Boom())
                }
            }
            // The one connection lent next is not inside that transaction.
            try await pool.withConnection { db in
                try await db.raw("BEGIN").run()
                try await db.raw("COMMIT").run()
            }
        }
    }

    @Test("a connection that cannot be reopened fails the lease that needed it; the next one opens it")
    func connectionThatCannotBeReopened() async throws {
        struct Boom: Error {}
        // Opening fails while `failing` is set.
        let failing = Locked(false)
        let attempts = Locked(0)
        let opener: SQLiteConnectionPool.ConnectionOpener = { path, threadPool, logger in
            attempts.withLock { $0 += 1 }
            if failing.withLock({ $0 }) { throw Boom() }
            return try await SQLiteConnectionPool.openConnection(path: path, threadPool: threadPool, logger: logger)
        }
        var closedPool: SQLiteConnectionPool?
        try await withPool(size: 1, opener: opener) { pool in
            closedPool = pool
            try await pool.withConnection { db in try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run() }
            await #expect(throws: Boom.self) {
                try await pool.withConnection { _ in throw ConnectionLeftUnusable(cause: Boom()) }
            }
            failing.withLock { $0 = true }
            await #expect(throws: Boom.self, "the lease that needed a new connection gets the opener's error") {
                try await pool.withConnection { db in try await db.raw("INSERT INTO t (id) VALUES (1)").run() }
            }
            failing.withLock { $0 = false }
            try await pool.withConnection { db in try await db.raw("INSERT INTO t (id) VALUES (2)").run() }
            let ids = try await pool.withConnection { db in
                try await db.raw("SELECT id FROM t").all(decoding: [String: Int].self).compactMap { $0["id"] }
            }
            #expect(ids == [2])
        }
        #expect(attempts.withLock { $0 } == 3, "the first connection, the failed reopening, the one after")
        await #expect(throws: DatabaseError("the database is closed")) {
            try await closedPool?.withConnection { db in try await db.raw("SELECT 1").run() }
        }
    }

    @Test("closing waits for the lent connections, then refuses later leases")
    func closingWaitsForLentConnections() async throws {
        try await withTemporaryFolder { folder in
            let pool = try await SQLiteConnectionPool.open(
                path: folder + "/pool.sqlite", size: 2, logger: Logger(label: "test"))
            let lent = AsyncStream<Void>.makeStream()
            let finished = Locked(false)
            let lease = Task {
                try await pool.withConnection { db in
                    lent.continuation.yield()
                    try await Task.sleep(for: .milliseconds(300))
                    try await db.raw("SELECT 1").run()
                    finished.withLock { $0 = true }
                }
            }
            for await _ in lent.stream { break }
            await pool.close()
            #expect(finished.withLock { $0 }, "close returned before the lent connection came back")
            try await lease.value
            await #expect(throws: DatabaseError("the database is closed")) {
                try await pool.withConnection { db in try await db.raw("SELECT 1").run() }
            }
        }
    }

    @Test("closing waits for a connection still being opened, that no lease needs any more, and closes it")
    func closingWaitsForConnectionsBeingOpened() async throws {
        // Every connection after the first opens only once the test lets it.
        let gate = AsyncStream<Void>.makeStream()
        let opened = Locked([SQLiteConnection]())
        let opener: SQLiteConnectionPool.ConnectionOpener = { path, threadPool, logger in
            if !opened.withLock({ $0.isEmpty }) {
                for await _ in gate.stream { break }
            }
            let connection = try await SQLiteConnectionPool.openConnection(
                path: path, threadPool: threadPool, logger: logger)
            opened.withLock { $0.append(connection) }
            return connection
        }
        try await withTemporaryFolder { folder in
            let pool = try await SQLiteConnectionPool.open(
                path: folder + "/pool.sqlite", size: 2, logger: Logger(label: "test"), opener: opener)
            let lent = AsyncStream<Void>.makeStream()
            let first = Task {
                try await pool.withConnection { db in
                    lent.continuation.yield()
                    try await Task.sleep(for: .milliseconds(50))
                    try await db.raw("SELECT 1").run()
                }
            }
            for await _ in lent.stream { break }
            // Asks for a second connection while the first is lent; the first's return serves it.
            try await pool.withConnection { db in try await db.raw("SELECT 2").run() }
            try await first.value
            #expect(opened.withLock { $0.count } == 1, "the second connection is still opening")
            let closed = Locked(false)
            let closing = Task {
                await pool.close()
                closed.withLock { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(!closed.withLock { $0 }, "close returned while a connection was being opened")
            gate.continuation.finish()
            await closing.value
            let connections = opened.withLock { $0 }
            #expect(connections.count == 2, "the connection being opened was opened")
            #expect(connections.allSatisfy { $0.isClosed }, "the pool closed every connection it opened")
        }
    }

    @Test("a transaction whose ROLLBACK fails throws the body's error and leaves the database usable")
    func failedRollback() async throws {
        struct Boom: Error {}
        try await withDatabase { database, _ in
            try await database.sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run()
            await #expect(throws: Boom.self) {
                try await database.transaction { db in
                    // Ends the transaction, so that the ROLLBACK after the error fails.
                    try await db.raw("ROLLBACK").run()
                    throw Boom()
                }
            }
            try await database.transaction { db in try await db.raw("INSERT INTO t (id) VALUES (1)").run() }
            try await database.executeAtomically(SQLRaw("INSERT INTO t (id) VALUES (2)"))
            let count = try await database.sql.raw("SELECT COUNT(*) AS n FROM t").first(decoding: [String: Int].self)
            #expect(count?["n"] == 2)
        }
    }

    @Test("concurrent transactions all commit")
    func concurrentTransactions() async throws {
        try await withDatabase { database, _ in
            try await database.sql.raw("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)").run()
            try await database.sql.raw("INSERT INTO counter (id, n) VALUES (1, 0)").run()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await database.transaction { db in
                            let row = try await db.raw("SELECT n FROM counter WHERE id = 1").first(
                                decoding: [String: Int].self)
                            let next = (row?["n"] ?? 0) + 1
                            try await db.raw("UPDATE counter SET n = \(bind: next) WHERE id = 1").run()
                        }
                    }
                }
                try await group.waitForAll()
            }
            let row = try await database.sql.raw("SELECT n FROM counter WHERE id = 1").first(
                decoding: [String: Int].self)
            #expect(row?["n"] == 40)
        }
    }

    @Test("a missing folder is a clear error")
    func missingFolder() async {
        await #expect(throws: DatabaseError.self) {
            _ = try await ServerDatabase.open(
                .sqlite(path: "/nonexistent-\(UUID().uuidString)/x.sqlite"), logger: Logger(label: "test"))
        }
    }
}

@Suite("DatabaseLocation")
struct DatabaseLocationTests {
    @Test("the data dir's SQLite file by default, PostgreSQL when a URL is given")
    func choice() {
        #expect(
            DatabaseLocation(dataDirectory: "/data", fileName: "x.sqlite", databaseURL: nil)
                == .sqlite(path: "/data/x.sqlite"))
        #expect(
            DatabaseLocation(dataDirectory: "/data", fileName: "x.sqlite", databaseURL: "postgres://u@h/db").kind
                == .postgres)
    }

    @Test("the description hides the password")
    func redaction() {
        let location = DatabaseLocation.postgres(url: "postgres://fleet:s3cret-pw@127.0.0.1:5432/fleet")
        #expect(!location.description.contains("s3cret-pw"))
        #expect(location.description.contains("127.0.0.1:5432/fleet"))
    }

    @Test("a bad URL is refused without echoing its password")
    func badURL() async throws {
        for url in [
            "mysql://fleet:s3cret-pw@h/db", "postgres://:s3cret-pw@h/db",
            "postgres://u:s3cret-pw@h/db?sslmode=sometimes",
            "postgres://u:s3cret-pw@h/db?wait_limit=soon", "postgres://u:s3cret-pw@h/db?sslmode=disable&wait_limit=0",
        ] {
            do {
                _ = try await ServerDatabase.open(.postgres(url: url), logger: Logger(label: "test"))
                Issue.record("\(url) was accepted")
            } catch {
                #expect(!error.description.contains("s3cret-pw"))
                if url.contains("wait_limit") {
                    #expect(error.description.contains("wait_limit must be a number of seconds"))
                }
            }
        }
    }

    @Test("an unreachable server is a clear error without the password")
    func unreachable() async throws {
        do {
            // Port 1 on loopback: nothing listens there.
            _ = try await ServerDatabase.open(
                .postgres(url: "postgres://u:s3cret-pw@127.0.0.1:1/db?sslmode=disable"), logger: Logger(label: "test"))
            Issue.record("an unreachable server was accepted")
        } catch {
            #expect(error.description.contains("cannot reach PostgreSQL"))
            #expect(!error.description.contains("s3cret-pw"))
        }
    }
}
