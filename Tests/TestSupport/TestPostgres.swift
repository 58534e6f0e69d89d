import FleetAuthServerStorage
import Foundation
import Logging
import SQLKit
import Testing

/// The PostgreSQL server tests use, named by `FLEETAUTH_TEST_POSTGRES_URL` (`.ci/run` starts
/// one; `eval "$(.ci/test-postgres.sh start)"` does here), and fresh databases on it.
public enum TestPostgres {
    /// The variable that names the server.
    public static let environmentVariable = "FLEETAUTH_TEST_POSTGRES_URL"

    /// The server's URL, if one is configured.
    public static var url: String? {
        ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server's URL; without one the calling test is skipped with a message, except in CI,
    /// where it fails.
    package static func requiredURL() throws -> String {
        if let url { return url }
        let message =
            "\(environmentVariable) is not set, so the PostgreSQL runs are skipped (start one with: eval \"$(.ci/test-postgres.sh start)\")"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(message); in CI it must be set")
            throw DatabaseError(message)
        }
        try Test.cancel(Comment(rawValue: message))
    }

    /// Makes a new, empty database on the server at `serverURL` and returns its URL and an
    /// action that drops it (ending its connections).
    public static func makeDatabase(on serverURL: String) async throws -> (
        url: String, drop: @Sendable () async -> Void
    ) {
        let logger = Logger(label: "test-postgres")
        let name = "fleetauth_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try await openPatiently(serverURL, logger: logger)
        do {
            try await admin.sql.raw("CREATE DATABASE \(unsafeRaw: name)").run()
            await admin.shutdown()
        } catch {
            await admin.shutdown()
            throw error
        }
        guard var components = URLComponents(string: patient(serverURL)) else {
            throw TestFailure("\(environmentVariable) is not a URL")
        }
        components.path = "/" + name
        guard let url = components.string else { throw TestFailure("no URL for database \(name)") }
        return (
            url,
            {
                guard let admin = try? await ServerDatabase.open(.postgres(url: patient(serverURL)), logger: logger)
                else { return }
                try? await admin.sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
                await admin.shutdown()
            }
        )
    }

    /// Opens the server's own database, trying up to three times: on a machine kept busy by
    /// other work (and by the suite's other PostgreSQL tests making databases at once), one
    /// connection may take longer than the 10 s `ServerDatabase.open` waits.
    package static func openPatiently(_ serverURL: String, logger: Logger) async throws -> ServerDatabase {
        for _ in 1..<3 {
            if let admin = try? await ServerDatabase.open(.postgres(url: patient(serverURL)), logger: logger) {
                return admin
            }
        }
        return try await ServerDatabase.open(.postgres(url: patient(serverURL)), logger: logger)
    }

    /// `url` with a wait limit of a minute: the suite's many PostgreSQL tests share one server,
    /// which a busy machine can keep from answering within the 4 s a server allows a request.
    /// These tests are not about that limit; the outage tests, on clusters of their own, are.
    private static func patient(_ url: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "wait_limit=60"
    }

    /// Ends every connection to the current database of `database` but its own one, as a
    /// database restart or a network cut would; with `waitingForALock`, only the connections
    /// waiting for a lock. Returns how many it ended.
    @discardableResult
    public static func endConnections(through database: any SQLDatabase, waitingForALock: Bool = false) async throws
        -> Int
    {
        let lockCondition = waitingForALock ? " AND wait_event_type = 'Lock'" : ""
        return try await database.raw(
            """
            SELECT pg_terminate_backend(pid) AS ended FROM \(unsafeRaw: otherConnections)\(unsafeRaw: lockCondition)
            """
        ).all().count
    }

    /// How many connections to the current database of `database` there are but its own one:
    /// none, once every server that used it has shut down and leaked none.
    public static func countOtherConnections(through database: any SQLDatabase) async throws -> Int {
        try await database.raw("SELECT count(*) AS connections FROM \(unsafeRaw: otherConnections)").first()?
            .decode(column: "connections", as: Int.self) ?? 0
    }

    /// The connections to the current database but the asking one's own.
    private static let otherConnections =
        "pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"

    /// Makes a server's write fail mid-transaction: holds `table` locked through `database`
    /// while `write` starts, so that the write waits inside its transaction, ends the
    /// connection that waits (the server's), then lets the lock go (within 60 s whatever
    /// happens, so that the write cannot wait for ever). Returns how many connections were
    /// ended (1 when the write waited for the lock) and the write's result.
    package static func endConnection<Result: Sendable>(
        waitingToWrite table: String,
        through database: ServerDatabase,
        during write: @escaping @Sendable () async throws -> Result
    ) async throws -> (ended: Int, result: Result) {
        let (ended, task) = try await database.transaction { db in
            try await db.raw("LOCK TABLE \(unsafeRaw: table) IN ACCESS EXCLUSIVE MODE").run()
            let task = Task { try await write() }
            let deadline = ContinuousClock.now + .seconds(60)
            var ended = 0
            while ended == 0, ContinuousClock.now < deadline {
                ended = try await endConnections(through: db, waitingForALock: true)
                if ended == 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            return (ended, task)
        }
        return (ended, try await task.value)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test that needs PostgreSQL only when `FLEETAUTH_TEST_POSTGRES_URL` names one, and
    /// always in CI (where a missing server then fails it): skipped at once elsewhere, with why.
    /// A case of a test run on both databases is skipped at run time instead
    /// (``TestPostgres/requiredURL()``), which Swift Testing reports as cancelled.
    package static var needsPostgres: Self {
        .enabled(
            if: TestPostgres.url != nil || ProcessInfo.processInfo.environment["CI"] == "true",
            "\(TestPostgres.environmentVariable) is not set (start one with: eval \"$(.ci/test-postgres.sh start)\")")
    }
}
