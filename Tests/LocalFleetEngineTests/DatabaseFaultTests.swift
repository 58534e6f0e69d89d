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
        "PostgreSQL connection ended mid-write: 503, nothing shown or saved, writes land again once it reconnects",
        .enabled(if: TestPostgres.url != nil, "\(TestPostgres.environmentVariable) is not set (eval \"$(.ci/test-postgres.sh start)\" sets it)")
    )
    func postgresConnectionEnded() async throws {
        let fresh = try await TestPostgres.makeDatabase(on: #require(TestPostgres.url))
        let location = DatabaseLocation.postgres(url: fresh.url)
        let path = "\(Fixtures.provider)/vehicles/ended"
        do {
            try await TestEngine.withDatabase(location: location) { client, _ in
                let other = try await FleetDatabase.open(location, logger: Logger(label: "test-postgres"))
                // The engine's save waits inside its transaction; its connection is ended.
                let (ended, response) = try await TestPostgres.endConnection(waitingToWrite: FleetTable.vehicles.journal, through: other) {
                    try await client.send(.POST, "\(Fixtures.provider)/vehicles?vehicleId=ended", token: Tokens.server, body: Fixtures.vehicleBody())
                }
                try #require(ended == 1, "the engine's save never waited for the lock: \(response)")
                #expect(response.status == 503 && response.errorStatus == "UNAVAILABLE", "\(response)")
                #expect(!response.body.lowercased().contains("postgres"), "\(response)")
                #expect(try await client.send(.GET, path, token: Tokens.server).status == 404)

                // Every connection of the engine ended at once: it reconnects.
                try await TestPostgres.endConnections(through: other.sql)
                await other.shutdown()
                var status = 0
                let deadline = ContinuousClock.now + .seconds(60)
                while status != 200, ContinuousClock.now < deadline {
                    let retried = try await client.send(.POST, "\(Fixtures.provider)/vehicles?vehicleId=ended", token: Tokens.server, body: Fixtures.vehicleBody())
                    status = retried.status
                    if status != 200 {
                        #expect(retried.status == 503 && retried.errorStatus == "UNAVAILABLE", "\(retried)")
                        try await Task.sleep(for: .milliseconds(250))
                    }
                }
                #expect(status == 200, "the engine did not recover")
            }
            // What was acknowledged is in the database.
            let reopened = try await TestEngine.withDatabase(location: location) { client, _ in
                try await client.send(.GET, path, token: Tokens.server)
            }
            #expect(reopened.status == 200, "\(reopened)")
            await fresh.drop()
        } catch {
            await fresh.drop()
            throw error
        }
    }
}
