import FleetAuthServerStorage
import Foundation
import SQLKit
import TestSupport
import Testing

/// What FleetAuth makes of a PostgreSQL server that refuses new connections in words (too many
/// clients, a database closed to connections, a password refused): the server is there, so
/// the connections already open go on serving and nothing is failed as unavailable; and
/// opening a database the server refuses says why at once.
@Suite("PostgreSQL refusing new connections", .needsPostgres)
struct PostgresRefusalTests {
    @Test("a database that refuses new connections is not down: statements that waited for a busy pool are served")
    func refusalIsNotAnOutage() async throws {
        try await TestDatabase.with(.postgres) { test in
            let database = try await ServerDatabase.open(test.location, logger: TestDatabase.logger)
            do {
                // Open as many pooled connections as the pool will, then close the database to
                // new ones: every connection the pool or the probe opens from now on is refused.
                try await Self.sleepAtOnce(30, seconds: 0.3, on: database)
                let open =
                    try await database.sql.raw(
                        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()"
                    )
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                try #require(open >= 2)
                // From another database: PostgreSQL will not close the one a session is in.
                // It then refuses every new connection to it (SQLSTATE 55000).
                try await Self.allowConnections(false, to: test.location)

                // Twice as many statements as connections: half of them wait for one, past the
                // half second after which the probe is asked whether the database is there.
                let slowest = try await Self.sleepAtOnce(2 * open, seconds: 0.8, on: database)
                #expect(slowest > .milliseconds(1300), "no statement waited long enough for the probe to be asked")
                #expect(await database.health().isHealthy)
                try await Self.allowConnections(true, to: test.location)
            } catch {
                await database.shutdown()
                throw error
            }
            await database.shutdown()
        }
    }

    @Test(
        "a server that refuses the first connection in words is quoted at once: a wrong password, a missing database, one closed to connections"
    )
    func openQuotesTheRefusal() async throws {
        try await TestDatabase.with(.postgres) { test in
            guard case .postgres(let url) = test.location, var wrongPassword = URLComponents(string: url),
                let name = wrongPassword.path.split(separator: "/").last
            else {
                throw TestFailure("not a PostgreSQL database: \(test.location)")
            }
            wrongPassword.password = "not-the-password"
            let missing = url.replacingOccurrences(of: String(name), with: "no_such_database")
            try await Self.expectOpen(
                try #require(wrongPassword.string), refusedWith: "password authentication failed",
                notQuoting: "not-the-password")
            try await Self.expectOpen(missing, refusedWith: "database \"no_such_database\" does not exist")
            // Before any connection of the pool: the pool alone would have retried until its wait ran out.
            try await Self.allowConnections(false, to: test.location)
            do {
                try await Self.expectOpen(url, refusedWith: "is not currently accepting connections")
            } catch {
                try await Self.allowConnections(true, to: test.location)
                throw error
            }
            try await Self.allowConnections(true, to: test.location)
        }
    }

    /// Expects opening `url` to fail with an error that says it cannot reach PostgreSQL, quotes
    /// `reason` and does not quote `secret`.
    private static func expectOpen(_ url: String, refusedWith reason: String, notQuoting secret: String? = nil)
        async throws
    {
        do {
            let database = try await ServerDatabase.open(.postgres(url: url), logger: TestDatabase.logger)
            await database.shutdown()
            Issue.record("\(reason): opened anyway")
        } catch {
            #expect(error.description.contains("cannot reach PostgreSQL"), "\(error)")
            #expect(error.description.contains(reason), "\(error)")
            if let secret { #expect(!error.description.contains(secret), "\(error)") }
        }
    }

    /// Runs `count` statements that each sleep `seconds` in the server, all at once; returns
    /// how long the slowest took. Any failure, `DatabaseUnavailable` among them, is thrown.
    @discardableResult
    private static func sleepAtOnce(_ count: Int, seconds: Double, on database: ServerDatabase) async throws -> Duration
    {
        try await withThrowingTaskGroup(of: Duration.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let started = ContinuousClock.now
                    try await database.sql.raw("SELECT pg_sleep(\(bind: seconds))").run()
                    return ContinuousClock.now - started
                }
            }
            return try await group.reduce(.zero, max)
        }
    }

    /// Opens or closes the test's database to new connections, from the server's own database.
    private static func allowConnections(_ allowed: Bool, to location: DatabaseLocation) async throws {
        guard case .postgres(let url) = location, let path = URLComponents(string: url)?.path, path.count > 1 else {
            throw TestFailure("not a PostgreSQL database: \(location)")
        }
        let admin = try await TestPostgres.openPatiently(try TestPostgres.requiredURL(), logger: TestDatabase.logger)
        do {
            try await admin.writes.raw(
                "ALTER DATABASE \(unsafeRaw: String(path.dropFirst())) ALLOW_CONNECTIONS \(unsafeRaw: allowed ? "true" : "false")"
            ).run()
        } catch {
            await admin.shutdown()
            throw error
        }
        await admin.shutdown()
    }
}
