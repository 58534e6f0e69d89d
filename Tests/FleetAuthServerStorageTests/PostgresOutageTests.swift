import FleetAuthServerStorage
import Foundation
import Logging
import SQLKit
import TestSupport
import Testing

/// PostgreSQL going away under a `ServerDatabase` and coming back: statements fail as
/// `DatabaseUnavailable` within the wait limit rather than hang, nothing is served from memory
/// meanwhile, and the same database object serves again once the server is back.
@Suite("PostgreSQL outages", .serialized, .faultTest)
struct PostgresOutageTests {
    /// Quiet: each failed connection attempt while the server is down would be a log line.
    private static let logger = {
        var logger = Logger(label: "postgres-outage-test")
        logger.logLevel = .error
        return logger
    }()

    @Test(
        "stopped: statements fail within the limit as unavailable, health says so; started again: served, with no restart"
    )
    func stoppedAndStarted() async throws {
        try await PrivatePostgres.with { cluster in
            let database = try await ServerDatabase.open(.postgres(url: cluster.url), logger: Self.logger)
            do {
                try await database.writes.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)").run()
                try await database.writes.raw("INSERT INTO notes VALUES (1, 'kept')").run()
                #expect(try await database.first("SELECT text FROM notes WHERE id = \(bind: 1)") != nil)
                try await waitUntil { database.hearsChanges }
                #expect(await database.health().isHealthy)

                try await cluster.halt()
                let asked = ContinuousClock.now
                await #expect(throws: DatabaseUnavailable.self) {
                    try await database.writes.raw("INSERT INTO notes VALUES (2, 'lost')").run()
                }
                // Within 5 s: the server ended the connections, so the probe found it down.
                #expect(ContinuousClock.now - asked < .seconds(5))
                // Nothing from memory while changes cannot be heard.
                try await waitUntil { !database.hearsChanges }
                await #expect(throws: DatabaseUnavailable.self) {
                    try await database.first("SELECT text FROM notes WHERE id = \(bind: 1)")
                }
                let health = await database.health()
                #expect(health.status == "unavailable" && health.database.contains("not answer"), "\(health)")
                #expect(health.changeFeed?.hasPrefix("not listening") == true, "\(health)")

                try await cluster.resume()
                let resumed = ContinuousClock.now
                try await waitUntil(timeout: .seconds(30)) {
                    (try? await database.writes.raw("INSERT INTO notes VALUES (3, 'after')").run()) != nil
                }
                let recovery = ContinuousClock.now - resumed
                try await waitUntil { database.hearsChanges }
                #expect(await database.health().isHealthy)
                let texts = try await database.sql.raw("SELECT text FROM notes ORDER BY id").all().map {
                    try $0.decode(column: "text", as: String.self)
                }
                #expect(texts == ["kept", "after"])
                print("PostgreSQL outage: the same database object served again \(recovery) after the server was back")
                #expect(recovery < .seconds(2))
            } catch {
                await database.shutdown()
                throw error
            }
            await database.shutdown()
        }
    }

    @Test(
        "every connection ended by the server: reads and writes run on new connections; none fails but as unavailable")
    func connectionsEnded() async throws {
        try await TestDatabase.with(.postgres) { test in
            let database = try await ServerDatabase.open(test.location, logger: Self.logger)
            let admin = try await ServerDatabase.open(test.location, logger: Self.logger)
            do {
                try await database.writes.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)").run()
                // Several pooled connections, all idle, then all ended.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 { group.addTask { try await database.sql.raw("SELECT pg_sleep(0.05)").run() } }
                    try await group.waitForAll()
                }
                #expect(try await TestPostgres.endConnections(through: admin.sql) >= 1)
                // A dead connection is usually met by a retry on a new one; on a busy machine
                // the driver may not fail a statement on it before the wait limit, which is
                // then the caller's DatabaseUnavailable. Nothing else may fail, nothing twice.
                func patiently(_ statement: @escaping @Sendable () async throws -> Void) async throws {
                    let deadline = ContinuousClock.now + .seconds(120)
                    while true {
                        do {
                            return try await statement()
                        } catch is DatabaseUnavailable where ContinuousClock.now < deadline {
                            continue
                        }
                    }
                }
                for id in 1...4 {
                    try await patiently {
                        try await database.writes.raw(
                            "INSERT INTO notes VALUES (\(bind: id), 'written') ON CONFLICT DO NOTHING"
                        ).run()
                    }
                    try await patiently { _ = try await database.sql.raw("SELECT count(*) AS n FROM notes").first() }
                }
                try await patiently {
                    try await database.transaction {
                        try await $0.raw("INSERT INTO notes VALUES (5, 'in a transaction') ON CONFLICT DO NOTHING")
                            .run()
                    }
                }
                let count = try await database.sql.raw("SELECT count(*) AS n FROM notes").first()?.decode(
                    column: "n", as: Int.self)
                #expect(count == 5)
            } catch {
                await database.shutdown()
                await admin.shutdown()
                throw error
            }
            await database.shutdown()
            await admin.shutdown()
        }
    }
}
