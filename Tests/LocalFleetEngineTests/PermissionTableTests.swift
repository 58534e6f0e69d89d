import NIOHTTP1
import TestSupport
import Testing

/// The permission table of docs/local-fleet-engine.md ("What a token may do"), row by row, over
/// HTTP against the shared engine: every role on every call, allowed and refused, including
/// the 403-before-404 rule.
@Suite("Permission table over HTTP")
struct PermissionTableTests {
    static let p = Fixtures.provider
    static let newVehicle = Fixtures.vehicleBody()
    static let move = Fixtures.locationUpdate(latitude: 52.521, longitude: 13.406)
    static let newTrip = Fixtures.tripBody(vehicleID: nil)
    static let status = #"{"tripStatus":"ENROUTE_TO_PICKUP"}"#
    static let search =
        #"{"pickupPoint":{"point":{"latitude":52.52,"longitude":13.405}},"pickupRadiusMeters":5000,"count":10,"minimumCapacity":1,"tripTypes":["EXCLUSIVE","SHARED"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"PICKUP_POINT_STRAIGHT_DISTANCE","currentTripsPresent":"ANY"}"#

    static func row(
        _ who: String, _ method: HTTPMethod, _ path: String, _ token: @escaping @Sendable () -> String,
        _ body: String? = nil, _ expected: Int
    ) -> RequestCase {
        RequestCase(
            name: "\(who): \(method) \(path) → \(expected)", method: method, path: path,
            authorization: { "Bearer \(token())" },
            body: body, status: expected, phrase: nil)
    }

    static let rows: [RequestCase] = [
        // create vehicle: server and admin only
        row("server", .POST, "\(p)/vehicles?vehicleId=made-by-server", { Tokens.server }, newVehicle, 200),
        row("admin", .POST, "\(p)/vehicles?vehicleId=made-by-admin", { Tokens.admin }, newVehicle, 200),
        row("viewer", .POST, "\(p)/vehicles?vehicleId=made-by-viewer", { Tokens.viewer }, newVehicle, 403),
        row(
            "driver", .POST, "\(p)/vehicles?vehicleId=made-by-driver", { Tokens.driver("made-by-driver") }, newVehicle,
            403),
        row("consumer", .POST, "\(p)/vehicles?vehicleId=made-by-consumer", { Tokens.consumer("t1") }, newVehicle, 403),
        row(
            "delivery admin", .POST, "\(p)/vehicles?vehicleId=made-by-delivery", { Tokens.deliveryAdmin }, newVehicle,
            403),
        row("server, taken id", .POST, "\(p)/vehicles?vehicleId=v1", { Tokens.server }, newVehicle, 409),
        // get vehicle
        row("server", .GET, "\(p)/vehicles/v1", { Tokens.server }, nil, 200),
        row("viewer", .GET, "\(p)/vehicles/v1", { Tokens.viewer }, nil, 200),
        row("own driver", .GET, "\(p)/vehicles/v1", { Tokens.driver("v1") }, nil, 200),
        row("other driver", .GET, "\(p)/vehicles/v1", { Tokens.driver("v2") }, nil, 403),
        row("consumer", .GET, "\(p)/vehicles/v1", { Tokens.consumer("t1") }, nil, 403),
        row("delivery admin", .GET, "\(p)/vehicles/v1", { Tokens.deliveryAdmin }, nil, 403),
        row("other driver, missing vehicle", .GET, "\(p)/vehicles/v404", { Tokens.driver("v1") }, nil, 403),
        row("consumer, missing vehicle", .GET, "\(p)/vehicles/v404", { Tokens.consumer("t1") }, nil, 403),
        row("own driver, missing vehicle", .GET, "\(p)/vehicles/v404", { Tokens.driver("v404") }, nil, 404),
        row("server, missing vehicle", .GET, "\(p)/vehicles/v404", { Tokens.server }, nil, 404),
        // update vehicle
        row("server", .PUT, "\(p)/vehicles/v1?updateMask=lastLocation", { Tokens.server }, move, 200),
        row("own driver", .PUT, "\(p)/vehicles/v1?updateMask=lastLocation", { Tokens.driver("v1") }, move, 200),
        row(
            "own driver, state", .PUT, "\(p)/vehicles/v1?updateMask=vehicleState", { Tokens.driver("v1") },
            #"{"vehicleState":"ONLINE"}"#, 200),
        row("other driver", .PUT, "\(p)/vehicles/v1?updateMask=lastLocation", { Tokens.driver("v2") }, move, 403),
        row("consumer", .PUT, "\(p)/vehicles/v1?updateMask=lastLocation", { Tokens.consumer("t1") }, move, 403),
        row("viewer", .PUT, "\(p)/vehicles/v1?updateMask=lastLocation", { Tokens.viewer }, move, 403),
        row(
            "own driver, attributes", .PUT, "\(p)/vehicles/v1?updateMask=attributes", { Tokens.driver("v1") },
            #"{"attributes":[{"key":"k","stringValue":"v"}]}"#, 403),
        row(
            "server, attributes", .PUT, "\(p)/vehicles/v2?updateMask=attributes", { Tokens.server },
            #"{"attributes":[{"key":"k","stringValue":"v"}]}"#, 200),
        row(
            "other driver, missing vehicle", .PUT, "\(p)/vehicles/v404?updateMask=lastLocation",
            { Tokens.driver("v1") }, move, 403),
        row(
            "own driver, missing vehicle", .PUT, "\(p)/vehicles/v404?updateMask=lastLocation",
            { Tokens.driver("v404") }, move, 404),
        // get trip
        row("server", .GET, "\(p)/trips/t1", { Tokens.server }, nil, 200),
        row("viewer", .GET, "\(p)/trips/t1", { Tokens.viewer }, nil, 200),
        row("driver of its vehicle", .GET, "\(p)/trips/t1", { Tokens.driver("v1") }, nil, 200),
        row("driver of another vehicle", .GET, "\(p)/trips/t1", { Tokens.driver("v2") }, nil, 403),
        row("own consumer", .GET, "\(p)/trips/t1", { Tokens.consumer("t1") }, nil, 200),
        row("other consumer", .GET, "\(p)/trips/t1", { Tokens.consumer("t2") }, nil, 403),
        row("delivery admin", .GET, "\(p)/trips/t1", { Tokens.deliveryAdmin }, nil, 403),
        row("driver, missing trip", .GET, "\(p)/trips/t404", { Tokens.driver("v1") }, nil, 403),
        row("other consumer, missing trip", .GET, "\(p)/trips/t404", { Tokens.consumer("t1") }, nil, 403),
        row("own consumer, missing trip", .GET, "\(p)/trips/t404", { Tokens.consumer("t404") }, nil, 404),
        row("server, missing trip", .GET, "\(p)/trips/t404", { Tokens.server }, nil, 404),
        // update trip
        row("server", .PUT, "\(p)/trips/t2?updateMask=tripStatus", { Tokens.server }, status, 200),
        row("driver of its vehicle", .PUT, "\(p)/trips/t1?updateMask=tripStatus", { Tokens.driver("v1") }, status, 200),
        row(
            "driver of another vehicle", .PUT, "\(p)/trips/t1?updateMask=tripStatus", { Tokens.driver("v2") }, status,
            403),
        row("own consumer", .PUT, "\(p)/trips/t1?updateMask=tripStatus", { Tokens.consumer("t1") }, status, 403),
        row("viewer", .PUT, "\(p)/trips/t1?updateMask=tripStatus", { Tokens.viewer }, status, 403),
        row(
            "driver, reassigning", .PUT, "\(p)/trips/t1?updateMask=vehicleId", { Tokens.driver("v1") },
            #"{"vehicleId":"v2"}"#, 403),
        row(
            "driver, missing trip", .PUT, "\(p)/trips/t404?updateMask=tripStatus", { Tokens.driver("v1") }, status, 403),
        row("server, missing trip", .PUT, "\(p)/trips/t404?updateMask=tripStatus", { Tokens.server }, status, 404),
        // search vehicles
        row("server", .POST, "\(p)/vehicles:search", { Tokens.server }, search, 200),
        row("viewer", .POST, "\(p)/vehicles:search", { Tokens.viewer }, search, 200),
        row("consumer", .POST, "\(p)/vehicles:search", { Tokens.consumer("t1") }, search, 200),
        row("driver", .POST, "\(p)/vehicles:search", { Tokens.driver("v1") }, search, 403),
        row("delivery admin", .POST, "\(p)/vehicles:search", { Tokens.deliveryAdmin }, search, 403),
        // create trip
        row("server", .POST, "\(p)/trips?tripId=made-by-server", { Tokens.server }, newTrip, 200),
        row("admin", .POST, "\(p)/trips?tripId=made-by-admin", { Tokens.admin }, newTrip, 200),
        row("viewer", .POST, "\(p)/trips?tripId=made-by-viewer", { Tokens.viewer }, newTrip, 403),
        row("driver", .POST, "\(p)/trips?tripId=made-by-driver", { Tokens.driver("v1") }, newTrip, 403),
        row(
            "consumer", .POST, "\(p)/trips?tripId=made-by-consumer", { Tokens.consumer("made-by-consumer") }, newTrip,
            403),
        // another provider
        row("server, other provider", .GET, "/v1/providers/other-fleet/vehicles/v1", { Tokens.server }, nil, 403),
        row(
            "server, other provider, missing", .GET, "/v1/providers/other-fleet/vehicles/v404", { Tokens.server }, nil,
            403),
    ]

    @Test(arguments: rows)
    func row(_ row: RequestCase) async throws {
        try await row.check(on: try await TestEngine.shared)
    }

    @Test func consumerSearchSeesOnlyApproximatePositions() async throws {
        let client = try await TestEngine.shared
        let precise = try await client.send(.POST, "\(Self.p)/vehicles:search", token: Tokens.server, body: Self.search)
        let rough = try await client.send(
            .POST, "\(Self.p)/vehicles:search", token: Tokens.consumer("t1"), body: Self.search)
        let preciseMatches = try #require(precise.json["matches"] as? [[String: Any]])
        let roughMatches = try #require(rough.json["matches"] as? [[String: Any]])
        #expect(!roughMatches.isEmpty && roughMatches.count == preciseMatches.count)
        for match in roughMatches {
            let vehicle = try #require(match["vehicle"] as? [String: Any])
            let location = try #require((vehicle["lastLocation"] as? [String: Any])?["location"] as? [String: Double])
            for coordinate in [location["latitude"]!, location["longitude"]!] {
                let steps = coordinate / 0.005
                #expect(abs(steps - steps.rounded()) < 1e-6, "\(coordinate) is not on the 0.005° grid")
            }
            #expect(vehicle["attributes"] == nil && vehicle["currentTrips"] == nil)
            #expect((vehicle["lastLocation"] as? [String: Any])?["heading"] == nil)
            #expect((match["vehiclePickupStraightLineDistanceMeters"] as? Int ?? -1) % 100 == 0)
        }
        let preciseLatitudes = preciseMatches.compactMap {
            (($0["vehicle"] as? [String: Any])?["lastLocation"] as? [String: Any])?["location"]
        }
        #expect(preciseLatitudes.count == preciseMatches.count)
    }

    @Test func deniedMessagesNameTheRule() async throws {
        let client = try await TestEngine.shared
        let other = try await client.send(.GET, "\(Self.p)/vehicles/v1", token: Tokens.driver("v2"))
        #expect(other.errorMessage.contains("vehicleid claim ('v2') does not cover"), "\(other)")
        let consumer = try await client.send(
            .PUT, "\(Self.p)/vehicles/v1?updateMask=lastLocation", token: Tokens.consumer("t1"), body: Self.move)
        #expect(consumer.errorMessage.contains("consumer token may not update vehicle 'v1'"), "\(consumer)")
        let trip = try await client.send(.GET, "\(Self.p)/trips/t1", token: Tokens.driver("v2"))
        #expect(trip.errorMessage.contains("trips assigned to the vehicle in its vehicleid claim"), "\(trip)")
        let provider = try await client.send(.GET, "/v1/providers/other-fleet/vehicles/v1", token: Tokens.server)
        #expect(provider.errorMessage.contains("serves provider '\(TestKeys.project)'"), "\(provider)")
    }
}
