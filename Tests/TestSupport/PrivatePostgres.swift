import CommandSupport
import FleetAuthServerStorage
import Foundation
import Logging
import Testing

/// A PostgreSQL cluster of one test's own, which the test may stop and start again on the same
/// port: made by `.ci/test-postgres.sh`, as CI makes the shared one, and removed at the end.
/// For the fault tests; it needs PostgreSQL's programs, which are there wherever
/// ``TestPostgres/url`` is set.
package struct PrivatePostgres: Sendable {
    /// The URL of the cluster's database, with ``waitLimit`` as its `wait_limit`.
    package let url: String
    private let directory: String
    /// How long a statement waits for a connection and its answer: twice a server's default,
    /// for the schema's first statements on a fresh cluster of a busy machine. Answers while
    /// the server is down come sooner: the probe finds it down.
    package static let waitLimit = Duration.seconds(8)

    /// Runs `body` with a new cluster, removed when `body` returns or throws; skipped as
    /// ``TestPostgres/requiredURL()`` skips where PostgreSQL is not set up. The cluster
    /// listens on loopback, or `beyondLoopback` on every address too, for clients in 198.18.0.0/15 (the links of a network namespace).
    package static func with<Result: Sendable>(
        listeningBeyondLoopback beyondLoopback: Bool = false, _ body: (PrivatePostgres) async throws -> Result
    ) async throws -> Result {
        _ = try TestPostgres.requiredURL()
        let started = try await script(
            ["start"], environment: beyondLoopback ? ["FLEETAUTH_TEST_POSTGRES_LISTEN_ALL": "1"] : [:],
            timeout: .seconds(120))
        func exported(_ name: String) throws -> String {
            let prefix = "export \(name)='"
            guard let line = started.output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
                throw TestFailure("test-postgres.sh start printed no \(name):\n\(started.output)")
            }
            return String(line.dropFirst(prefix.count).dropLast())
        }
        let cluster = PrivatePostgres(
            url: try exported(TestPostgres.environmentVariable) + "&wait_limit=\(waitLimit.components.seconds)",
            directory: try exported("FLEETAUTH_TEST_POSTGRES_DIR"))
        do {
            let result = try await body(cluster)
            _ = try? await script(["stop", cluster.directory])
            return result
        } catch {
            _ = try? await script(["stop", cluster.directory])
            throw error
        }
    }

    /// Stops the server (a fast shutdown: its connections are ended), keeping the cluster.
    package func halt() async throws {
        _ = try await Self.script(["halt", directory])
    }

    /// Starts the stopped server again, on the same port.
    package func resume() async throws {
        _ = try await Self.script(["resume", directory])
    }

    /// Waits until no connection to the cluster's database is left but the one asking (for
    /// 10 s at most, as closes travel): every server that used it has shut down and leaked none,
    /// also of the pools it replaced during an outage.
    package func waitUntilNoConnectionIsLeft() async throws {
        let database = try await ServerDatabase.open(.postgres(url: url), logger: Logger(label: "private-postgres"))
        do {
            try await waitUntil("no connection to the database is left", timeout: .seconds(10)) {
                try await TestPostgres.countOtherConnections(through: database.sql) == 0
            }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    /// Starts the stopped server again and returns how long after it was back `served` first
    /// held (asked until 30 s have passed): the recovery of what the test runs on it.
    package func resume(timingUntil served: @escaping @Sendable () -> Bool) async throws -> Duration {
        try await resume()
        let resumed = ContinuousClock.now
        try await waitUntil(timeout: .seconds(30)) { served() }
        return ContinuousClock.now - resumed
    }

    private static func script(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> ChildProcess.Exit {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../.ci/test-postgres.sh"
        ).standardized.path
        return try await ChildProcess.run(
            ["/bin/bash", path] + arguments, environment: environment, standardError: .discarded, timeout: timeout
        ).checked()
    }
}
