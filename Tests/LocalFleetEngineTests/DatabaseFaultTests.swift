import Foundation
@testable import LocalFleetEngine
import Logging
import ServerStorage
import Testing
import TestSupport

/// The engine's database failing in the middle of a write (SQLite full, a PostgreSQL connection
/// ended): the write is refused with 503, the engine does not show what it could not save, and
/// writes land again once the database is back.
@Suite("Local Fleet Engine database faults")
struct FleetEngineDatabaseFaultTests {
    /// A vehicle with 100 attributes of 256-character values: about 50 KB to save.
    private static var bulkyVehicle: String {
        let attributes = (0..<100).map { #"{"key":"k\#($0)","stringValue":"\#(String(repeating: "v", count: 256))"}"# }
        return #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"attributes":[\#(attributes.joined(separator: ","))]}"#
    }

    @Test("SQLite full mid-write: 503, nothing shown or saved, writes land again once there is room")
    func sqliteFull() async throws {
        let folder = try TestEngine.makeFolder()
        let vehicle = try await TestEngine.withDatabase(folder: folder) { client, database in
            try await database.capSQLiteSize(atPages: nil)
            var refused: String?
            for index in 0..<200 where refused == nil {
                let id = "bulky-\(index)"
                let response = try await client.send(.POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server, body: Self.bulkyVehicle)
                guard response.status != 200 else { continue }
                #expect(response.status == 503 && response.errorStatus == "UNAVAILABLE", "\(response)")
                #expect(response.errorMessage.contains("could not be saved"), "\(response)")
                #expect(!response.body.lowercased().contains("sqlite"))
                refused = id
            }
            let id = try #require(refused, "the capped database never filled")
            #expect(try await client.send(.GET, "\(Fixtures.provider)/vehicles/\(id)", token: Tokens.server).status == 404)

            try await database.capSQLiteSize(atPages: 1 << 30)
            let retried = try await client.send(.POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server, body: Self.bulkyVehicle)
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
        .enabled(if: PrivatePostgres.faultTestsEnabled, PrivatePostgres.faultTestsSkipped)
    )
    func postgresConnectionEnded() async throws {
        let fresh = try await TestPostgres.makeDatabase(on: #require(TestPostgres.url))
        let location = DatabaseLocation.postgres(url: fresh.url)
        let path = "\(Fixtures.provider)/vehicles/ended"
        do {
            try await TestEngine.withDatabase(location: location) { client, _ in
                let other = try await FleetDatabase.open(location, logger: Logger(label: "test-postgres"))
                // The engine's save waits inside its transaction; its connection is ended.
                // Nothing of it was committed, so it is made again on another connection.
                let (ended, response) = try await TestPostgres.endConnection(waitingToWrite: FleetTable.vehicles.journal, through: other) {
                    try await client.send(.POST, "\(Fixtures.provider)/vehicles?vehicleId=ended", token: Tokens.server, body: Fixtures.vehicleBody())
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
                [try await client.send(.GET, path, token: Tokens.server).status,
                 try await client.send(.GET, "\(Fixtures.provider)/vehicles/after-restart", token: Tokens.server).status]
            }
            #expect(reopened == [200, 200])
            await fresh.drop()
        } catch {
            await fresh.drop()
            throw error
        }
    }

    /// Creates vehicle `id`, retrying while the answer is 503 (any other answer fails the test).
    private func createPatiently(_ client: TestClient, _ id: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let response = try await client.send(.POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server, body: Fixtures.vehicleBody())
            if response.status == 200 { return }
            #expect(response.status == 503 && response.errorStatus == "UNAVAILABLE", "\(response)")
            try #require(response.status == 503 && ContinuousClock.now < deadline, "the engine did not recover")
        }
    }
}
