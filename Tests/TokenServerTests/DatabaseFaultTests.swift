import CommandSupport
import FleetAuthLocking
import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Testing

@testable import TokenServer

/// The token server's database failing in the middle of a write: the request fails with a
/// Google-shaped error that says nothing of the database (or, when nothing of it took effect,
/// is made on another connection), nothing is half-written, and the server serves again once
/// the database does.
@Suite("Token server database faults")
struct TokenServerDatabaseFaultTests {
    /// An account linked to an identity: two rows, written in one transaction.
    private static func accountBody(_ username: String) -> String {
        let subject = username + "-" + String(repeating: "s", count: 200)
        return
            #"{"username":"\#(username)","role":"driver","identity":{"issuer":"https://id.example.com","subject":"\#(subject)"}}"#
    }

    @Test("SQLite full mid-write: 503 naming the full disk, no account half-made, accounts again once there is room")
    func sqliteFull() async throws {
        try await TestServer.serve(.sqlite) { client, server in
            let database = server.server.store.database
            try await database.capSQLiteSize(atPages: nil)
            var refused: String?
            for index in 0..<400 where refused == nil {
                let username = "filler-\(index)"
                let response = try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody(username))
                guard response.status != .created else { continue }
                let message = try response.expectRefusal(.serviceUnavailable, "UNAVAILABLE")
                #expect(message == "the data directory's disk is full; nothing was written; try again")
                #expect(response.headers[.retryAfter] == "30")
                #expect(!String(buffer: response.body).lowercased().contains("sqlite"))
                refused = username
            }
            let username = try #require(refused, "the capped database never filled")
            #expect(try await server.server.store.account(username: username) == nil)

            try await database.capSQLiteSize(atPages: 1 << 30)
            // The same account and identity again: 201, not 409, so neither row was left behind.
            let retried = try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody(username))
            #expect(retried.status == .created, "\(String(buffer: retried.body))")
            #expect(try await client.send(.get, "/healthz").status == .ok)
        }
    }

    @Test(
        "a real full disk (a 4 MiB tmpfs as the data directory): writes 503 naming it, logged-in apps keep getting tokens, all well again once there is room",
        .enabled(if: getuid() == 0, "mounts a tmpfs: needs root"))
    func fullDisk() async throws {
        let disk = FileManager.default.temporaryDirectory.appendingPathComponent("full-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        _ = try await ChildProcess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk]).checked()
        do {
            try await fillAndFree(disk)
        } catch {
            _ = try? await ChildProcess.run(["umount", "-l", disk])
            throw error
        }
        _ = try await ChildProcess.run(["umount", "-l", disk]).checked()
        try FileManager.default.removeItem(atPath: disk)
    }

    /// The full-disk test on the tmpfs at `disk`.
    private func fillAndFree(_ disk: String) async throws {
        let server = try await TestServer.open(
            dataDirectory: disk + "/data", database: .sqlite(path: disk + "/data/token-server.sqlite"))
        try await server.serve { client in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let session = try await client.logIn("ann")

            // Fill the disk to the last byte.
            let filler =
                FileManager.default.createFile(atPath: disk + "/filler", contents: nil)
                ? FileHandle(forWritingAtPath: disk + "/filler") : nil
            let handle = try #require(filler)
            let chunk = Data(repeating: 0x2a, count: 16 * 1024)
            while (try? handle.write(contentsOf: chunk)) != nil {}
            while (try? handle.write(contentsOf: Data([0x2a]))) != nil {}
            try? handle.close()

            // SQLite's write-ahead log may hold a few pages' room: writes go on until one fails.
            var refusal: TestResponse?
            for index in 0..<200 where refusal == nil {
                let response = try await client.admin(
                    .post, "/v1/admin/accounts", json: Self.accountBody("filler-\(index)"))
                if response.status != .created { refusal = response }
            }
            let refused = try #require(refusal, "the full disk took every write")
            let message = try refused.expectRefusal(.serviceUnavailable, "UNAVAILABLE")
            #expect(message == "the data directory's disk is full; nothing was written; try again")
            #expect(refused.headers[.retryAfter] == "30")
            try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"correct horse"}"#)
                .expectRefusal(.serviceUnavailable, "UNAVAILABLE")
            for _ in 0..<20 {
                #expect(
                    try await client.token("driver/v-1", session: session).status == .ok,
                    "a logged-in app keeps getting tokens")
            }

            try FileManager.default.removeItem(atPath: disk + "/filler")
            try await client.createAccount("bob", role: "driver")
            _ = try await client.logIn("bob")
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            #expect(try await client.send(.get, "/healthz").status == .ok)
        }
    }

    @Test(
        "PostgreSQL connection dropped mid-transaction: made once on another connection, or 503; never half-made; every connection dropped: writes land again",
        .faultTest)
    func postgresConnectionDropped() async throws {
        try await TestServer.serve(.postgres) { client, server in
            let location = server.server.store.database.location
            let other = try await ServerDatabase.open(location, logger: TestDatabase.logger)
            defer { Task { await other.shutdown() } }
            // The account's second insert waits inside its transaction; its connection is ended.
            // Nothing of that transaction was committed, so it runs again on another connection
            // (or, if the driver is slow to fail the dead one, ends in 503 at the wait limit).
            let (ended, response) = try await TestPostgres.endConnection(
                waitingToWrite: "token_server_identities", through: other
            ) {
                try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody("dropped"))
            }
            try #require(ended == 1, "the account's insert never waited for the lock: \(String(buffer: response.body))")
            if response.status != .created {
                _ = try response.expectRefusal(.serviceUnavailable, "UNAVAILABLE")
                #expect(
                    try await server.server.store.account(username: "dropped") == nil, "half an account was written")
                try await createPatiently(client, "dropped")
            }
            #expect(try await server.server.store.account(username: "dropped") != nil)
            let again = try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody("dropped"))
            #expect(again.status == .conflict, "the account was not made exactly once: \(String(buffer: again.body))")

            // Every connection of the server ended at once, as a database restart ends them.
            #expect(try await TestPostgres.endConnections(through: other.sql) >= 1)
            try await createPatiently(client, "after-restart")
        }
    }

    /// Creates an account, retrying while the answer is 503 (any other refusal fails the test).
    private func createPatiently(_ client: Client, _ username: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let response = try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody(username))
            if response.status == .created { return }
            _ = try response.expectRefusal(.serviceUnavailable, "UNAVAILABLE")
            try #require(ContinuousClock.now < deadline, "the server did not recover")
        }
    }

    /// One token request's outcome under load.
    private struct Outcome: Sendable {
        let status: Int
        let retryAfter: String?
        let errorStatus: String?
        let elapsed: Duration
    }

    @Test(
        "PostgreSQL stopped under load: 200 or 503 with Retry-After, each within the limit; healthz and metrics say so; served again once it is back; no connection leaked",
        .faultTest)
    func postgresStoppedUnderLoad() async throws {
        try await PrivatePostgres.with { cluster in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString)")
                .path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Quiet: every refusal and every failed connection attempt would be a log line, and
            // a flood of them through the test runner's output only slows the run.
            var quiet = Logger(label: "outage-test")
            quiet.logLevel = .error
            // One session asks as fast as it can: the per-session limit is not what is tested.
            var options = TestServer.options()
            options.tokenRequestsPerMinute = 0
            let server = try await TestServer.open(
                dataDirectory: folder + "/data", database: .postgres(url: cluster.url), options: options, logger: quiet)
            try await server.serve { client in
                let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
                #expect(try await client.token("driver/v-1", session: session).status == .ok)
                // Each request on a connection of its own, as many apps send them: the test
                // client's one connection would queue them behind each other.
                let port = try #require(client.http.port)
                let request = [
                    "GET /v1/tokens/driver/v-1 HTTP/1.1", "Host: localhost", "Authorization: Bearer \(session)",
                ]
                let outcomes = Locked<[Outcome]>([])
                let stop = Locked(false)
                let load = Task {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<8 {
                            group.addTask {
                                while !stop.withLock({ $0 }) {
                                    let start = ContinuousClock.now
                                    let response = try await RawHTTP.exchange(port: port, head: request)
                                    outcomes.withLock {
                                        $0.append(
                                            Outcome(
                                                status: response.status, retryAfter: response.headers["retry-after"],
                                                errorStatus: response.googleError?.status, elapsed: .now - start))
                                    }
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                try await Task.sleep(for: .milliseconds(300))
                try await cluster.halt()
                // Meanwhile: healthz says what is wrong, and the refusals are counted.
                try await waitUntil(timeout: .seconds(30)) {
                    try await client.send(.get, "/healthz").status == .serviceUnavailable
                }
                let health = try await client.send(.get, "/healthz")
                #expect(health.headers[.retryAfter] == "1")
                let said = try health.json()
                #expect(
                    said["status"] as? String == "unavailable"
                        && (said["database"] as? String)?.contains("not answer") == true, "\(said)")
                try await waitUntil(timeout: .seconds(30)) { outcomes.withLock { $0.contains { $0.status == 503 } } }
                let metrics = String(buffer: try await client.send(.get, "/metrics").body)
                let counted =
                    PrometheusText.value(
                        of: #"fleetauth_token_refusals_total{reason="database_unavailable"}"#, in: metrics) ?? 0
                #expect(counted >= 1, "the 503s are counted as refusals for database_unavailable: \(metrics)")

                let servedCount = outcomes.withLock { $0.count }
                let recovery = try await cluster.resume {
                    outcomes.withLock { $0.dropFirst(servedCount).contains { $0.status == 200 } }
                }
                stop.withLock { $0 = true }
                try await load.value
                #expect(try await client.send(.get, "/healthz").status == .ok)

                let all = outcomes.withLock { $0 }
                let refused = all.filter { $0.status != 200 }
                #expect(!refused.isEmpty)
                for outcome in refused {
                    #expect(
                        outcome.status == 503 && outcome.errorStatus == "UNAVAILABLE" && outcome.retryAfter == "1",
                        "\(outcome)")
                }
                // No answer waits past 5 s, and the server serves again within 2 s of the
                // database's return.
                let slowest = all.map(\.elapsed).max() ?? .zero
                #expect(slowest < .seconds(5), "slowest answer: \(slowest)")
                #expect(recovery < .seconds(2), "served again \(recovery) after the server was back")
                print(
                    "PostgreSQL stopped under load: \(all.count) token requests, \(refused.count) answered 503, slowest \(slowest); served again \(recovery) after the server was back"
                )
            }
            try await cluster.waitUntilNoConnectionIsLeft()
        }
    }
}
