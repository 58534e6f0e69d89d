import FleetAuthLocking
import FleetAuthServerStorage
import Foundation
import Logging
import TestSupport
import Testing

@testable import LocalFleetEngine

/// The engine's database failing in the middle of a write (SQLite full, a PostgreSQL connection
/// ended): the write is refused with 503, the engine does not show what it could not save, and
/// writes land again once the database is back.
@Suite("Local Fleet Engine database faults")
struct FleetEngineDatabaseFaultTests {
    /// A vehicle with 100 attributes of 256-character values: about 50 KB to save.
    private static var bulkyVehicle: String {
        let attributes = (0..<100).map { #"{"key":"k\#($0)","stringValue":"\#(String(repeating: "v", count: 256))"}"# }
        return
            #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"attributes":[\#(attributes.joined(separator: ","))]}"#
    }

    @Test("SQLite full mid-write: 503, nothing shown or saved, writes land again once there is room")
    func sqliteFull() async throws {
        let folder = try TestEngine.makeFolder()
        let vehicle = try await TestEngine.withDatabase(folder: folder) { client, database in
            try await database.capSQLiteSize(atPages: nil)
            var refused: String?
            for index in 0..<200 where refused == nil {
                let id = "bulky-\(index)"
                let response = try await client.send(
                    .POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server,
                    body: Self.bulkyVehicle)
                guard response.status != 200 else { continue }
                #expect(response.status == 503 && response.errorStatus == "UNAVAILABLE", "\(response)")
                #expect(
                    response.errorMessage.contains("the data directory's disk is full; nothing was written"),
                    "\(response)")
                #expect(response.retryAfter == "30", "\(response)")
                #expect(!response.body.lowercased().contains("sqlite"))
                refused = id
            }
            let id = try #require(refused, "the capped database never filled")
            #expect(
                try await client.send(.GET, "\(Fixtures.provider)/vehicles/\(id)", token: Tokens.server).status == 404)

            try await database.capSQLiteSize(atPages: 1 << 30)
            let retried = try await client.send(
                .POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server, body: Self.bulkyVehicle)
            #expect(retried.status == 200, "\(retried)")
            return id
        }
        // What was acknowledged is on disk.
        let reopened = try await TestEngine.with(folder: folder) { client in
            try await client.send(.GET, "\(Fixtures.provider)/vehicles/\(vehicle)", token: Tokens.server)
        }
        #expect(reopened.status == 200, "\(reopened)")
    }

    @Test(
        "PostgreSQL connection ended mid-write: the save is made on another connection; every connection ended: the next write lands",
        .faultTest
    )
    func postgresConnectionEnded() async throws {
        let fresh = try await TestPostgres.makeDatabase(on: #require(TestPostgres.url))
        let location = DatabaseLocation.postgres(url: fresh.url)
        let path = "\(Fixtures.provider)/vehicles/ended"
        do {
            try await TestEngine.withDatabase(location: location) { client, _ in
                let other = try await ServerDatabase.open(location, logger: Logger(label: "test-postgres"))
                // The engine's save waits inside its transaction; its connection is ended.
                // Nothing of it was committed, so it is made again on another connection.
                let (ended, response) = try await TestPostgres.endConnection(
                    waitingToWrite: ResourceTable.vehicles.journal, through: other
                ) {
                    try await client.send(
                        .POST, "\(Fixtures.provider)/vehicles?vehicleId=ended", token: Tokens.server,
                        body: Fixtures.vehicleBody())
                }
                try #require(ended == 1, "the engine's save never waited for the lock: \(response)")
                if response.status != 200 {
                    // The driver was slow to fail the dead connection: 503 at the wait limit.
                    #expect(response.status == 503 && response.errorStatus == "UNAVAILABLE", "\(response)")
                    #expect(try await client.send(.GET, path, token: Tokens.server).status == 404)
                    try await createPatiently(client, "ended")
                }
                #expect(try await client.send(.GET, path, token: Tokens.server).status == 200)

                // Every connection of the engine ended at once, as a restart ends them: the
                // next write is lent dead connections first, and lands on a new one.
                #expect(try await TestPostgres.endConnections(through: other.sql) >= 1)
                await other.shutdown()
                try await createPatiently(client, "after-restart")
            }
            // What was acknowledged is in the database.
            let reopened = try await TestEngine.withDatabase(location: location) { client, _ in
                [
                    try await client.send(.GET, path, token: Tokens.server).status,
                    try await client.send(.GET, "\(Fixtures.provider)/vehicles/after-restart", token: Tokens.server)
                        .status,
                ]
            }
            #expect(reopened == [200, 200])
            await fresh.drop()
        } catch {
            await fresh.drop()
            throw error
        }
    }

    @Test(
        "PostgreSQL stopped under location updates: each answered 200, or 503 with Retry-After, within 5 s; healthz and metrics say so; served again within 2 s; every acknowledged update kept; no connection leaked",
        .faultTest
    )
    func postgresStoppedUnderLoad() async throws {
        try await PrivatePostgres.with { cluster in
            let location = DatabaseLocation.postgres(url: cluster.url)
            let vehicles = (0..<8).map { "moving-\($0)" }
            // The latest latitude each vehicle's updates were acknowledged with.
            let acknowledged = Locked<[String: Double]>([:])
            let outcomes = Locked<[(status: Int, retryAfter: String?, elapsed: Duration)]>([])
            try await TestEngine.withDatabase(location: location) { client, _ in
                for id in vehicles {
                    let created = try await client.send(
                        .POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server,
                        body: Fixtures.vehicleBody())
                    try #require(created.status == 200, "\(created)")
                }
                let stop = Locked(false)
                let load = Task {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for id in vehicles {
                            group.addTask {
                                var step = 0
                                while !stop.withLock({ $0 }) {
                                    step += 1
                                    let latitude = Double(step) / 10_000
                                    let started = ContinuousClock.now
                                    let response = try await client.send(
                                        .PUT, "\(Fixtures.provider)/vehicles/\(id)?updateMask=lastLocation",
                                        token: Tokens.server,
                                        body: Fixtures.locationUpdate(latitude: latitude, longitude: 1))
                                    outcomes.withLock {
                                        $0.append((response.status, response.retryAfter, .now - started))
                                    }
                                    if response.status == 200 { acknowledged.withLock { $0[id] = latitude } }
                                    // Paced: each refusal is a line in the engine's log.
                                    try await Task.sleep(for: .milliseconds(50))
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                try await Task.sleep(for: .milliseconds(300))
                try await cluster.halt()
                try await waitUntil(timeout: .seconds(30)) {
                    try await client.send(.GET, "/healthz", authorization: nil).status == 503
                }
                try await waitUntil(timeout: .seconds(30)) { outcomes.withLock { $0.contains { $0.status == 503 } } }
                // Meanwhile: healthz says what is wrong, and the refusals are counted.
                let health = try await client.send(.GET, "/healthz", authorization: nil)
                #expect(
                    health.status == 503 && health.value("status") as? String == "unavailable"
                        && health.retryAfter == "1", "\(health)")
                let metrics = try await client.send(.GET, "/metrics", authorization: nil).body
                let refused =
                    PrometheusText.value(
                        of: #"fleet_engine_requests_total{method="UpdateVehicle",door="rest",status="UNAVAILABLE"}"#,
                        in: metrics) ?? 0
                #expect(refused >= 1, "the 503s are counted: \(metrics)")
                let before = outcomes.withLock { $0.count }
                let recovery = try await cluster.resume {
                    outcomes.withLock { $0.dropFirst(before).contains { $0.status == 200 } }
                }
                stop.withLock { $0 = true }
                try await load.value
                #expect(try await client.send(.GET, "/healthz", authorization: nil).status == 200)

                let all = outcomes.withLock { $0 }
                for outcome in all where outcome.status != 200 {
                    #expect(outcome.status == 503 && outcome.retryAfter == "1", "\(outcome)")
                }
                let slowest = all.map(\.elapsed).max() ?? .zero
                #expect(slowest < .seconds(5), "slowest answer: \(slowest)")
                #expect(recovery < .seconds(2), "served again \(recovery) after the server was back")
                print(
                    "Local Fleet Engine, PostgreSQL stopped under location updates: \(all.count) updates, \(all.filter { $0.status == 503 }.count) answered 503, slowest \(slowest); served again \(recovery) after the server was back"
                )
            }
            // Every acknowledged update is in the database: each vehicle is where its last
            // acknowledged update put it, or further on (a 503 whose commit lost its connection
            // may have been made).
            let kept = acknowledged.withLock { $0 }
            #expect(kept.count == vehicles.count)
            try await TestEngine.withDatabase(location: location) { client, _ in
                for (id, latitude) in kept {
                    let vehicle = try await client.send(
                        .GET, "\(Fixtures.provider)/vehicles/\(id)", token: Tokens.server)
                    let stored = try #require(
                        vehicle.value("lastLocation.location.latitude") as? Double, "\(id): \(vehicle)")
                    #expect(stored >= latitude, "\(id): acknowledged at \(latitude), stored at \(stored)")
                }
            }
            try await cluster.waitUntilNoConnectionIsLeft()
        }
    }

    /// Creates vehicle `id`, retrying while the answer is 503 (any other answer fails the test).
    private func createPatiently(_ client: TestClient, _ id: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let response = try await client.send(
                .POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server,
                body: Fixtures.vehicleBody())
            if response.status == 200 { return }
            #expect(response.status == 503 && response.errorStatus == "UNAVAILABLE", "\(response)")
            try #require(response.status == 503 && ContinuousClock.now < deadline, "the engine did not recover")
        }
    }
}
