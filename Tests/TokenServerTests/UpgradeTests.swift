import CommandSupport
import FleetAuthServerStorage
import FleetTokens
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import TokenServer

/// Upgrades in place: a data directory and a PostgreSQL database that an earlier commit's
/// `token-server` wrote (Tests/TokenServerTests/Fixtures/, made by
/// scripts/make-upgrade-fixture.sh) open with today's code, nothing lost; and a database that
/// newer code changed beyond what this code can use is refused, not half-read.
@Suite("Upgrades in place")
struct UpgradeTests {
    /// What the fixture's script wrote beside the data directories.
    private struct Manifest: Decodable {
        let commit: String
        let password: String
        let sessions: [String: [String: String]]
    }

    /// Every fixture folder (`upgrade-from-COMMIT`).
    private static var fixtures: [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("upgrade-from-") }.sorted().map { folder + "/" + $0 }
    }

    @Test(
        "a data directory and database of an earlier commit open with every account, identity, assignment, session, admin key and signing key"
    )
    func opensWhatAnEarlierCommitWrote() async throws {
        try #require(!Self.fixtures.isEmpty, "no fixture in Tests/TokenServerTests/Fixtures")
        for fixture in Self.fixtures {
            for backend in StoreBackend.allCases {
                try await opens(fixture: fixture, on: backend)
            }
        }
    }

    private func opens(fixture: String, on backend: StoreBackend) async throws {
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: fixture + "/fixture.json")))
        let sessions = try #require(manifest.sessions[backend.rawValue])
        let (annSession, caiSession) = (try #require(sessions["ann"]), try #require(sessions["cai"]))
        try await TestDatabase.with(backend) { database in
            let data = database.folder + "/data"
            try FileManager.default.copyItem(atPath: fixture + "/" + backend.rawValue, toPath: data)
            if case .postgres(let url) = database.location {
                // psql takes the URL without the query FleetAuth's own settings ride in.
                let plainURL = String(url.prefix { $0 != "?" })
                let restored = try await ChildProcess.run([
                    "psql", "--quiet", "--set", "ON_ERROR_STOP=1", "--file", data + "/postgres.sql", plainURL,
                ])
                try #require(restored.succeeded, "restoring the fixture's dump: \(restored.output)")
            }
            // Twice: the second start finds the version recorded and changes nothing.
            for start in 1...2 {
                let server = try await TestServer.open(dataDirectory: data, database: database.location)
                let store = server.server.store
                let recorded = try #require(
                    try await store.database.first("SELECT version, oldest_compatible FROM token_server_schema"))
                #expect(
                    try recorded.decode(column: "version", as: Int.self) == TokenServerSchema.version, "start \(start)")
                #expect(
                    try await StoreTests.recordIndexNames(of: store) == StoreTests.recordIndexes,
                    "the record's indexes as the last version leaves them")
                let accounts = try await store.accounts()
                #expect(
                    accounts.map { "\($0.username) \($0.role)" }.sorted() == [
                        "ann driver", "cai consumer", "dee delivery-driver", "dora delivery-consumer",
                        "fred fleet-reader", "ida driver",
                        "tess delivery-trusted-driver",
                    ], "\(manifest.commit) on \(backend), start \(start)")
                #expect(
                    accounts.first { $0.username == "ida" }?.identity
                        == LinkedIdentity(issuer: "https://idp.example.com", subject: "ida-123"))
                #expect(
                    try await store.assignments().map { "\($0.kind.rawValue)/\($0.resourceID) \($0.username)" }.sorted()
                        == [
                            "delivery-vehicle/dv-1 dee", "delivery-vehicle/dv-2 tess", "tracking-id/tr-1 dora",
                            "trip/t-1 cai", "vehicle/v-1 ann",
                            "vehicle/v-2 ida",
                        ])
                try await server.serve { client in
                    #expect(
                        try await client.admin(.delete, "/v1/admin/vehicles/v-404/driver").status == .notFound,
                        "the admin key holds")
                    let ann = try await client.token("driver/v-1", session: annSession)
                    #expect(
                        ann.status == .ok,
                        "ann's session of \(manifest.commit) still works: \(String(buffer: ann.body))")
                    let token = try #require(try ann.json()["token"] as? String)
                    let kid = try ServiceAccountKey(contentsOf: data + "/keys/driver.json").privateKeyID
                    #expect(
                        try TokenInspection(token: token).header.keyID == kid,
                        "signed with the key the earlier commit made")
                    #expect(try await client.token("consumer/t-1", session: caiSession).status == .ok)
                    #expect(
                        try await client.token("driver/v-2", session: annSession).status == .forbidden,
                        "assignments hold")
                    let dee = try await client.logIn("dee", password: manifest.password)
                    #expect(
                        try await client.token("delivery-driver/dv-1", session: dee).status == .ok, "passwords hold")
                }
            }
        }
    }

    @Test(
        "a database newer code changed beyond this code is refused with both versions named; a compatible newer one opens, its version kept",
        arguments: StoreBackend.allCases)
    func newerDatabases(backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            let newer = TokenServerSchema.version + 1
            try await store.database.sql.raw(
                "UPDATE token_server_schema SET version = \(bind: newer), oldest_compatible = 1"
            ).run()
            try await TokenServerSchema.migrate(store.database, parts: [.grants])
            let kept = try #require(try await store.database.first("SELECT version FROM token_server_schema"))
            #expect(try kept.decode(column: "version", as: Int.self) == newer, "never taken back down")

            try await store.database.sql.raw("UPDATE token_server_schema SET oldest_compatible = \(bind: newer)").run()
            await store.close()
            do {
                let refused = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
                await refused.close()
                Issue.record("a database this code cannot use was opened")
            } catch let error as SchemaTooNew {
                #expect(
                    error.description.contains("schema version \(newer)")
                        && error.description.contains("up to \(TokenServerSchema.version)"), "\(error)")
            }
        }
    }
}
