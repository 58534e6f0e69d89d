import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Foundation
import TestSupport
import Testing

@testable import TokenServer

@Suite("Replicas and restarts")
struct ReplicaAndRestartTests {
    @Test(
        "two servers on one PostgreSQL serve one fleet: log in on one, get tokens from the other, one record, revoke anywhere"
    )
    func replicas() async throws {
        try await TestDatabase.with(.postgres) { database in
            let dataDirectory = database.folder + "/shared-data"
            let first = try await TestServer.open(dataDirectory: dataDirectory, database: database.location)
            let second = try await TestServer.open(dataDirectory: dataDirectory, database: database.location)
            try await first.serve { one in
                try await second.serve { two in
                    try await one.createAccount("ann", role: "driver")
                    try await two.assign("vehicles/v-1/driver", to: "ann")
                    let session = try await one.logIn("ann")
                    let verified = try await two.token("driver/v-1", session: session).verifiedToken(
                        try await verifier(from: one))
                    #expect(verified.claims.authorization.vehicleID == "v-1")
                    // The record is one: the token the second replica handed out is listed by the first.
                    let held = try await one.admin(.get, "/v1/admin/issued-tokens?vehicle=v-1&valid=true")
                    #expect(
                        (try held.json()["issuedTokens"] as? [[String: Any]])?.map { $0["account"] as? String } == [
                            "ann"
                        ], "\(String(buffer: held.body))")
                    #expect(try await two.admin(.delete, "/v1/admin/vehicles/v-1/driver").status == .noContent)
                    try await one.token("driver/v-1", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
                    #expect(try await one.send(.delete, "/v1/sessions/current", bearer: session).status == .noContent)
                    // The other replica hears of it through PostgreSQL's change signal (within
                    // 100 ms at load, as the benchmark measures); on a busy test machine, soon.
                    try await waitUntil(timeout: .seconds(10)) {
                        try await two.token("driver/v-1", session: session).status == .unauthorized
                    }
                    try await two.token("driver/v-1", session: session).expectRefusal(.unauthorized, "UNAUTHENTICATED")
                }
            }
        }
    }

    @Test(
        "a replica that served a grant from memory refuses it once another replica revokes it, and serves nothing from memory while it cannot hear changes"
    )
    func revocationAcrossReplicas() async throws {
        try await TestDatabase.with(.postgres) { database in
            let dataDirectory = database.folder + "/shared-data"
            let first = try await TestServer.open(dataDirectory: dataDirectory, database: database.location)
            let second = try await TestServer.open(dataDirectory: dataDirectory, database: database.location)
            try await first.serve { one in
                try await second.serve { two in
                    try await one.createAccount("ann", role: "driver")
                    try await one.assign("vehicles/v-1/driver", to: "ann")
                    try await one.assign("vehicles/v-2/driver", to: "ann")
                    let session = try await one.logIn("ann")
                    // Served from memory after the first read, while nothing changes.
                    for _ in 0..<3 { #expect(try await two.token("driver/v-1", session: session).status == .ok) }

                    // A revocation on the first replica: the second refuses it soon after.
                    let revoked = ContinuousClock.now
                    #expect(try await one.admin(.delete, "/v1/admin/vehicles/v-1/driver").status == .noContent)
                    try await waitUntil(timeout: .seconds(10)) {
                        try await two.token("driver/v-1", session: session).status == .forbidden
                    }
                    #expect(ContinuousClock.now - revoked < .seconds(10))

                    // The second replica's connections are cut, its listening one among them:
                    // a revocation meanwhile is never served from memory once it has noticed.
                    #expect(try await two.token("driver/v-2", session: session).status == .ok)
                    let admin = try await ServerDatabase.open(database.location, logger: .init(label: "test"))
                    _ = try await TestPostgres.endConnections(through: admin.sql)
                    // The first replica's connections were cut too: its first write may be
                    // refused (a dead pooled connection, the fault #35 is about); then it lands.
                    try await waitUntil(timeout: .seconds(60)) {
                        let status = try await one.admin(.delete, "/v1/admin/vehicles/v-2/driver").status
                        return status == .noContent || status == .notFound
                    }
                    try await waitUntil(timeout: .seconds(10)) {
                        (try? await two.token("driver/v-2", session: session).status) == .forbidden
                    }
                    await admin.shutdown()
                    // And it listens again: a later revocation is heard too.
                    #expect(try await one.send(.delete, "/v1/sessions/current", bearer: session).status == .noContent)
                    try await waitUntil(timeout: .seconds(10)) {
                        (try? await two.token("driver/v-2", session: session).status) == .unauthorized
                    }
                }
            }
        }
    }

    @Test("a restart keeps keys, admin key, accounts and sessions", arguments: StoreBackend.allCases)
    func restart(backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let dataDirectory = database.folder + "/data"
            // First start makes its own keys (not the shared test keys).
            var configuration = TokenServerConfiguration(
                dataDirectory: dataDirectory, projectID: "restart-project", options: TestServer.options())
            if case .postgres(let url) = database.location { configuration.databaseURL = url }
            let first = TestServer(server: try await TokenServer.open(configuration), configuration: configuration)
            #expect(first.server.adminKeySetup == .created(path: configuration.adminKeyPath))
            let adminKey = try first.adminKey
            let session = try await first.serve { client in
                try await client.createAccount("ann", role: "driver")
                try await client.assign("vehicles/v-1/driver", to: "ann")
                return try await client.logIn("ann")
            }
            let keyIDs = first.server.keyRing.signingKeys.keys.mapValues(\.privateKeyID)

            let second = TestServer(server: try await TokenServer.open(configuration), configuration: configuration)
            #expect(second.server.adminKeySetup == .fromFile(path: configuration.adminKeyPath))
            #expect(try second.adminKey == adminKey)
            #expect(second.server.keyRing.signingKeys.keys.mapValues(\.privateKeyID) == keyIDs)
            try await second.serve { client in
                let verified = try await client.token("driver/v-1", session: session).verifiedToken(
                    try await verifier(from: client))
                #expect(verified.keyID == keyIDs[.driverSDKUser])
            }
        }
    }

    @Test("a keys folder of another project is refused with a clear error")
    func otherProject() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let dataDirectory = database.folder + "/data"
            try TestKeys.install(in: dataDirectory + "/keys")
            let configuration = TokenServerConfiguration(
                dataDirectory: dataDirectory, projectID: "another-project", options: TestServer.options())
            do {
                _ = try await TokenServer.open(configuration)
                Issue.record("a key of another project was accepted")
            } catch let error as KeyFileError {
                #expect(error.problem.contains("belongs to project \"\(TestKeys.project)\""))
            }
        }
    }
}
