import FleetServerSupport
import Foundation
import TestSupport
import Testing

/// The engine's SQLite file full in the middle of a write: the write is refused with 503, the
/// engine does not show what it could not save, and writes land again once there is room.
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
            try await database.capSQLite(atPages: nil)
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

            try await database.capSQLite(atPages: 1 << 30)
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
}
