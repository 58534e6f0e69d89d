import Foundation
import TestSupport

/// Request bodies and the resources of the shared engine: vehicles v1 and v2, each with a
/// trip (t1 on v1, t2 on v2), and v-validation and v-stamp for the validation tests.
enum Fixtures {
    static let provider = "/v1/providers/\(TestKeys.project)"

    static func vehicleBody(state: String = "ONLINE", latitude: Double? = nil, longitude: Double = 0) -> String {
        let location = latitude.map { ",\"lastLocation\":\(locationJSON(latitude: $0, longitude: longitude))" } ?? ""
        return """
            {"vehicleState":"\(state)","supportedTripTypes":["EXCLUSIVE","SHARED"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}\(location)}
            """
    }

    static func locationJSON(latitude: Double, longitude: Double) -> String {
        #"{"location":{"latitude":\#(latitude),"longitude":\#(longitude)},"heading":90,"speed":8.5,"updateTime":"2026-11-21T16:30:00.250Z"}"#
    }

    static func locationUpdate(latitude: Double, longitude: Double) -> String {
        #"{"lastLocation":\#(locationJSON(latitude: latitude, longitude: longitude))}"#
    }

    static func tripBody(vehicleID: String?) -> String {
        let vehicle = vehicleID.map { #","vehicleId":"\#($0)""# } ?? ""
        return #"{"tripType":"EXCLUSIVE","pickupPoint":{"point":{"latitude":52.52,"longitude":13.405}}\#(vehicle)}"#
    }

    /// Creates v1 and v2 near Berlin's centre, online, and trips t1 (on v1) and t2 (on v2).
    static func create(on client: TestClient) async throws {
        for (vehicle, latitude) in [("v1", 52.5201), ("v2", 52.5301), ("v-validation", 52.5401), ("v-stamp", 52.5501)] {
            let created = try await client.send(
                .POST, "\(provider)/vehicles?vehicleId=\(vehicle)", token: Tokens.server,
                body: vehicleBody(latitude: latitude, longitude: 13.405))
            guard created.status == 200 else { throw TestFailure("creating \(vehicle): \(created)") }
        }
        for (trip, vehicle) in [("t1", "v1"), ("t2", "v2")] {
            let created = try await client.send(
                .POST, "\(provider)/trips?tripId=\(trip)", token: Tokens.server, body: tripBody(vehicleID: vehicle))
            guard created.status == 200 else { throw TestFailure("creating \(trip): \(created)") }
        }
    }
}
