import Foundation
import Hummingbird
import HummingbirdTesting
import ServerHTTP
import ServerStorage
import Testing
import TestSupport
@testable import TokenServer

/// The token server's database failing in the middle of a write: the request fails with a
/// Google-shaped error that says nothing of the database, nothing is half-written, and the
/// server serves again once the database does.
@Suite("Token server database faults")
struct TokenServerDatabaseFaultTests {
    /// An account linked to an identity: two rows, written in one transaction.
    private static func accountBody(_ username: String) -> String {
        let subject = username + "-" + String(repeating: "s", count: 200)
        return #"{"username":"\#(username)","role":"driver","identity":{"issuer":"https://id.example.com","subject":"\#(subject)"}}"#
    }

    @Test("SQLite full mid-write: 500 without the database's words, no account half-made, accounts again once there is room")
    func sqliteFull() async throws {
        try await TestServer.serve(.sqlite) { client, server in
            let database = server.server.store.database
            try await database.capSQLiteSize(atPages: nil)
            var refused: String?
            for index in 0..<400 where refused == nil {
                let username = "filler-\(index)"
                let response = try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody(username))
                guard response.status != .created else { continue }
                let message = try response.expectRefusal(.internalServerError, "INTERNAL")
                #expect(message == APIError.internalMessage)
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

    @Test("PostgreSQL connection dropped mid-transaction: 500, no account half-made, and the server recovers")
    func postgresConnectionDropped() async throws {
        try await TestServer.serve(.postgres) { client, server in
            let location = server.server.store.database.location
            let other = try await FleetDatabase.open(location, logger: TestDatabase.logger)
            defer { Task { await other.shutdown() } }
            let username = "dropped"
            // The account's second insert waits inside its transaction; its connection is ended.
            let (ended, response) = try await TestPostgres.endConnection(waitingToWrite: "token_server_identities", through: other) {
                try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody(username))
            }
            try #require(ended == 1, "the account's insert never waited for the lock: \(String(buffer: response.body))")
            let message = try response.expectRefusal(.internalServerError, "INTERNAL")
            #expect(message == APIError.internalMessage)
            #expect(try await server.server.store.account(username: username) == nil, "half an account was written")

            // Every connection of the server dropped at once: it reconnects.
            try await TestPostgres.endConnections(through: other.sql)
            var status = HTTPResponse.Status.internalServerError
            let deadline = ContinuousClock.now + .seconds(60)
            while status != .created, ContinuousClock.now < deadline {
                let retried = try await client.admin(.post, "/v1/admin/accounts", json: Self.accountBody(username))
                status = retried.status
                if status != .created {
                    // Until the pool has replaced the dropped connections: a JSON refusal, never a hang.
                    _ = try retried.expectRefusal(status, status == .serviceUnavailable ? "UNAVAILABLE" : "INTERNAL")
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            #expect(status == .created, "the server did not recover")
        }
    }
}
