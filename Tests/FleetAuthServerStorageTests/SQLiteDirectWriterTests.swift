import Foundation
import Logging
import SQLKit
import Testing

@testable import FleetAuthServerStorage

@Suite("SQLite writes on the calling thread")
struct SQLiteDirectWriterTests {
    private func withDatabase(_ body: (ServerDatabase) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("direct-write-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let location = DatabaseLocation(dataDirectory: folder, fileName: "test.sqlite", databaseURL: nil)
        let database = try await ServerDatabase.open(location, logger: Logger(label: "test"))
        do {
            try await database.executeAtomically(
                SQLRaw("CREATE TABLE rows (id TEXT PRIMARY KEY, message BLOB NOT NULL, n INTEGER)"))
            try await body(database)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    private func insert(_ id: String, _ message: Data) -> SQLQueryString {
        "INSERT INTO rows (id, message) VALUES (\(bind: id), \(bind: message)) ON CONFLICT (id) DO UPDATE SET message = excluded.message"
    }

    private func message(_ database: ServerDatabase, _ id: String) async throws -> Data? {
        try await database.sql.raw("SELECT message FROM rows WHERE id = \(bind: id)").first()?.decode(
            column: "message", as: Data.self)
    }

    @Test("a write lands whole, bytes and all, and every connection sees it, the direct reader's too")
    func writesAreSeenEverywhere() async throws {
        try await withDatabase { database in
            let bytes = Data([0, 1, 2, 0xFF, 0])
            try database.executeWithoutWaiting([insert("a", bytes)])
            #expect(try await message(database, "a") == bytes)
            let direct = try database.firstWithoutWaiting("SELECT message FROM rows WHERE id = \(bind: "a")")
            #expect(try direct?.decode(column: "message", as: Data.self) == bytes)
            try database.executeWithoutWaiting([insert("a", Data([7]))])
            #expect(
                try await message(database, "a") == Data([7]),
                "the same statement, prepared once, ran again with new binds")
        }
    }

    @Test("several statements land together, or none of them when one fails")
    func severalStatementsAreAtomic() async throws {
        try await withDatabase { database in
            try database.executeWithoutWaiting([insert("a", Data([1])), insert("b", Data([2]))])
            #expect(try await message(database, "a") == Data([1]))
            #expect(try await message(database, "b") == Data([2]))
            #expect(throws: ServerDatabase.UnavailableWithoutWaiting.self) {
                try database.executeWithoutWaiting([
                    insert("a", Data([3])), SQLRaw("INSERT INTO rows (id, message) VALUES ('c', NULL)"),
                ])
            }
            #expect(try await message(database, "a") == Data([1]), "the first statement of a failed pair was kept")
            #expect(try await message(database, "c") == nil)
            try database.executeWithoutWaiting([insert("a", Data([4]))])
            #expect(try await message(database, "a") == Data([4]), "the writer is usable after a rollback")
        }
    }

    @Test(
        "a write that would wait for another connection's lock fails at once, writing nothing; it lands once the lock is gone"
    )
    func aHeldLockFailsAtOnce() async throws {
        try await withDatabase { database in
            let (lockTaken, takeLock) = AsyncStream.makeStream(of: Void.self)
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await database.transaction { connection in
                    try await connection.raw("INSERT INTO rows (id, message) VALUES ('held', x'00')").run()
                    takeLock.yield()
                    for await _ in released { break }
                }
            }
            for await _ in lockTaken { break }
            let start = ContinuousClock.now
            #expect(throws: ServerDatabase.UnavailableWithoutWaiting.self) {
                try database.executeWithoutWaiting([insert("a", Data([1]))])
            }
            // Well under the pool's 5 s busy timeout, which a write that waited would sit out.
            #expect(ContinuousClock.now - start < .seconds(4), "the write waited for the lock")
            release.yield()
            try await holder.value
            #expect(try await message(database, "a") == nil)
            try database.executeWithoutWaiting([insert("a", Data([1]))])
            #expect(try await message(database, "a") == Data([1]))
        }
    }

    @Test(
        "a size cap holds here as on the pool: a write needing a page more is refused whole; it lands once the cap is raised"
    )
    func sizeCapHoldsHere() async throws {
        try await withDatabase { database in
            try await database.capSQLiteSize(atPages: nil)
            let bulky = Data(repeating: 7, count: 100_000)
            #expect(throws: ServerDatabase.UnavailableWithoutWaiting.self) {
                try database.executeWithoutWaiting([insert("big", bulky)])
            }
            #expect(try await message(database, "big") == nil)
            try await database.capSQLiteSize(atPages: 1 << 30)
            try database.executeWithoutWaiting([insert("big", bulky)])
            #expect(try await message(database, "big") == bulky)
        }
    }

    @Test("after shutdown, writes here are refused")
    func closedWriterRefuses() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("direct-write-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try await ServerDatabase.open(
            .sqlite(path: folder + "/test.sqlite"), logger: Logger(label: "test"))
        try database.executeWithoutWaiting([SQLRaw("CREATE TABLE t (x INTEGER)")])
        await database.shutdown()
        #expect(throws: ServerDatabase.UnavailableWithoutWaiting.self) {
            try database.executeWithoutWaiting([SQLRaw("INSERT INTO t VALUES (1)")])
        }
    }
}
