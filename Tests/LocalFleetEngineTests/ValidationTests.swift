import Foundation
import LocalFleetEngine
import NIOHTTP1
import SwiftProtobuf
import TestSupport
import Testing

/// Requests with a good token that break a rule of the API: 400 `INVALID_ARGUMENT` with a
/// message that names the field, and nothing changed.
@Suite("Request validation over HTTP")
struct ValidationTests {
    /// A request with a server token that must be refused with 400 and `phrase`.
    static func invalid(name: String, method: HTTPMethod, path: String, body: String?, phrase: String) -> RequestCase {
        RequestCase(
            name: name, method: method, path: path, authorization: { "Bearer \(Tokens.server)" }, body: body,
            status: 400, phrase: phrase)
    }

    static let p = Fixtures.provider
    static let update = "\(p)/vehicles/v-validation?updateMask=lastLocation"
    static func location(_ latitude: String, _ longitude: String) -> String {
        #"{"lastLocation":{"location":{"latitude":\#(latitude),"longitude":\#(longitude)}}}"#
    }

    static let cases: [RequestCase] = [
        invalid(
            name: "latitude over 90", method: .PUT, path: update, body: location("90.5", "0"),
            phrase: "latitude is 90.5"),
        invalid(name: "latitude under -90", method: .PUT, path: update, body: location("-91", "0"), phrase: "latitude"),
        invalid(
            name: "longitude over 180", method: .PUT, path: update, body: location("0", "180.01"),
            phrase: "longitude is 180.01"),
        invalid(
            name: "longitude under -180", method: .PUT, path: update, body: location("0", "-200"), phrase: "longitude"),
        invalid(
            name: "NaN latitude", method: .PUT, path: update, body: location(#""NaN""#, "0"), phrase: "latitude is nan"),
        invalid(
            name: "Infinity longitude", method: .PUT, path: update, body: location("0", #""Infinity""#),
            phrase: "longitude is inf"),
        invalid(
            name: "latitude as text", method: .PUT, path: update, body: location(#""north""#, "0"), phrase: "latitude"),
        invalid(
            name: "heading out of range", method: .PUT, path: update,
            body: #"{"lastLocation":{"location":{"latitude":1,"longitude":2},"heading":360}}"#, phrase: "heading is 360"
        ),
        invalid(
            name: "lastLocation without location", method: .PUT, path: update, body: #"{"lastLocation":{"heading":3}}"#,
            phrase: "lastLocation.location is required"),
        invalid(
            name: "masked field missing", method: .PUT, path: update, body: "{}", phrase: "lastLocation is required"),
        invalid(
            name: "unknown updateMask path", method: .PUT, path: "\(p)/vehicles/v-validation?updateMask=color",
            body: location("1", "2"), phrase: "'color'"),
        invalid(
            name: "no updateMask", method: .PUT, path: "\(p)/vehicles/v-validation", body: location("1", "2"),
            phrase: "updateMask is required"),
        invalid(
            name: "output-only updateMask path", method: .PUT,
            path: "\(p)/vehicles/v-validation?updateMask=currentTrips", body: "{}", phrase: "'currentTrips'"),
        invalid(
            name: "name disagreeing with the path", method: .PUT, path: update,
            body:
                #"{"name":"providers/\#(TestKeys.project)/vehicles/v1","lastLocation":{"location":{"latitude":1,"longitude":2}}}"#,
            phrase: "disagrees with the request path"),
        invalid(
            name: "name of another provider", method: .PUT, path: update,
            body:
                #"{"name":"providers/other/vehicles/v-validation","lastLocation":{"location":{"latitude":1,"longitude":2}}}"#,
            phrase: "disagrees"),
        invalid(
            name: "unknown field", method: .PUT, path: update,
            body: #"{"lastLocation":{"location":{"latitude":1,"longitude":2}},"color":"red"}"#,
            phrase: "unknown field"),
        invalid(
            name: "unknown nested field", method: .PUT, path: update,
            body: #"{"lastLocation":{"location":{"latitude":1,"longitude":2,"z":3}}}"#,
            phrase: "unknown field"),
        invalid(
            name: "unknown enum name", method: .PUT, path: "\(p)/vehicles/v-validation?updateMask=vehicleState",
            body: #"{"vehicleState":"PARKED"}"#,
            phrase: #"vehicleState is "PARKED": not a name or number of its enum"#),
        invalid(name: "not JSON", method: .PUT, path: update, body: "{lastLocation", phrase: "not valid"),
        invalid(name: "JSON array", method: .PUT, path: update, body: "[]", phrase: "must be a JSON object"),
        invalid(name: "empty body", method: .PUT, path: update, body: nil, phrase: "empty"),
        invalid(
            name: "body over 64 KiB", method: .PUT, path: update,
            body:
                #"{"attributes":[\#(Array(repeating: #"{"key":"k","stringValue":"v"}"#, count: 3000).joined(separator: ","))]}"#,
            phrase: "larger than"),
        invalid(
            name: "create without vehicleId", method: .POST, path: "\(p)/vehicles", body: Fixtures.vehicleBody(),
            phrase: "vehicleId is required"),
        invalid(
            name: "create with a bad vehicleId", method: .POST, path: "\(p)/vehicles?vehicleId=a%3Ab",
            body: Fixtures.vehicleBody(), phrase: "contains ':'"),
        invalid(
            name: "create without maximumCapacity", method: .POST, path: "\(p)/vehicles?vehicleId=no-capacity",
            body: #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"vehicleType":{"category":"AUTO"}}"#,
            phrase: "maximumCapacity is required"),
        invalid(
            name: "create with a bad position", method: .POST, path: "\(p)/vehicles?vehicleId=bad-position",
            body: Fixtures.vehicleBody(latitude: 95, longitude: 0), phrase: "latitude is 95"),
        invalid(
            name: "create with a duplicated attribute", method: .POST, path: "\(p)/vehicles?vehicleId=twice",
            body:
                #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":1,"vehicleType":{"category":"AUTO"},"attributes":[{"key":"a","boolValue":true},{"key":"a","numberValue":1}]}"#,
            phrase: "twice"),
        // A query is form-encoded: `+` is a space (schemathesis found `tripId=a+b` taken as the id "a+b").
        invalid(
            name: "create with a space in tripId, sent as '+'", method: .POST, path: "\(p)/trips?tripId=a+b",
            body: Fixtures.tripBody(vehicleID: nil), phrase: "contains white space"),
        invalid(
            name: "create with a space in vehicleId, sent as '+'", method: .POST, path: "\(p)/vehicles?vehicleId=a+b",
            body: Fixtures.vehicleBody(), phrase: "contains white space"),
        invalid(
            name: "trip without pickupPoint", method: .POST, path: "\(p)/trips?tripId=no-pickup",
            body: #"{"tripType":"EXCLUSIVE"}"#, phrase: "pickupPoint is required"),
        invalid(
            name: "trip on a vehicle that does not exist", method: .POST, path: "\(p)/trips?tripId=no-vehicle",
            body: Fixtures.tripBody(vehicleID: "v404"), phrase: "names no vehicle"),
        invalid(
            name: "trip with a bad dropoff", method: .POST, path: "\(p)/trips?tripId=bad-dropoff",
            body:
                #"{"tripType":"SHARED","pickupPoint":{"point":{"latitude":1,"longitude":1}},"dropoffPoint":{"point":{"latitude":1,"longitude":-181}}}"#,
            phrase: "dropoffPoint.point.longitude"),
        invalid(
            name: "search radius too small", method: .POST, path: "\(p)/vehicles:search",
            body:
                #"{"pickupPoint":{"point":{"latitude":1,"longitude":1}},"pickupRadiusMeters":10,"count":1,"minimumCapacity":1,"tripTypes":["EXCLUSIVE"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"PICKUP_POINT_STRAIGHT_DISTANCE"}"#,
            phrase: "pickupRadiusMeters"),
        invalid(
            name: "search by dropoff ETA without a dropoff", method: .POST, path: "\(p)/vehicles:search",
            body:
                #"{"pickupPoint":{"point":{"latitude":1,"longitude":1}},"pickupRadiusMeters":1000,"count":1,"minimumCapacity":1,"tripTypes":["EXCLUSIVE"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"DROPOFF_POINT_ETA"}"#,
            phrase: "needs a dropoffPoint"),
        invalid(
            name: "shared search without currentTripsPresent", method: .POST, path: "\(p)/vehicles:search",
            body:
                #"{"pickupPoint":{"point":{"latitude":1,"longitude":1}},"pickupRadiusMeters":1000,"count":1,"minimumCapacity":1,"tripTypes":["SHARED"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"PICKUP_POINT_ETA"}"#,
            phrase: "currentTripsPresent must be NONE or ANY"),
        invalid(
            name: "a staleness of more than 3,000 years", method: .GET,
            path: "\(p)/vehicles?vehicleTypeCategories=AUTO&maximumStaleness=200000000000s", body: nil,
            phrase: "less than 100000000000s"),
        invalid(
            name: "search with the engine's former name for orderBy", method: .POST, path: "\(p)/vehicles:search",
            body:
                #"{"pickupPoint":{"point":{"latitude":1,"longitude":1}},"pickupRadiusMeters":1000,"count":1,"minimumCapacity":1,"tripTypes":["EXCLUSIVE"],"vehicleTypes":[{"category":"AUTO"}],"matchOrderBy":"PICKUP_POINT_ETA"}"#,
            phrase: "matchOrderBy"),
    ]

    @Test(arguments: cases)
    func refused(_ invalid: RequestCase) async throws {
        let client = try await TestEngine.shared
        let before = try await client.send(.GET, "\(Self.p)/vehicles/v-validation", token: Tokens.server)
        try await invalid.check(on: client)
        if invalid.method == .PUT {
            let after = try await client.send(.GET, "\(Self.p)/vehicles/v-validation", token: Tokens.server)
            #expect(
                after.value("lastLocation.location.latitude") as? Double == before.value(
                    "lastLocation.location.latitude") as? Double)
        }
    }

    @Test func snakeCaseFieldsAreProto3JSONToo() async throws {
        let client = try await TestEngine.shared
        let response = try await client.send(
            .PUT, "\(Self.p)/vehicles/v-stamp?updateMask=last_location", token: Tokens.server,
            body: #"{"last_location":{"location":{"latitude":52.53,"longitude":13.41},"latlng_accuracy":4.5}}"#)
        #expect(response.status == 200, "\(response)")
        #expect(response.value("lastLocation.latlngAccuracy") as? Double == 4.5)
    }

    /// Google's system parameter `$alt=json;enum-encoding=int` asks for enums by number, on
    /// reads and on listings (where it is not taken for a ListVehicles field).
    @Test func enumsByNumberWhenAsked() async throws {
        let client = try await TestEngine.shared
        let created = try await client.send(
            .POST, "\(Self.p)/vehicles?vehicleId=v-enum-numbers", token: Tokens.server,
            body: Fixtures.vehicleBody(state: "OFFLINE"))
        #expect(created.status == 200, "\(created)")
        let byName = try await client.send(.GET, "\(Self.p)/vehicles/v-enum-numbers", token: Tokens.server)
        #expect(byName.value("vehicleState") as? String == "OFFLINE")
        let byNumber = try await client.send(
            .GET, "\(Self.p)/vehicles/v-enum-numbers?$alt=json;enum-encoding=int", token: Tokens.server)
        #expect(byNumber.value("vehicleState") as? Int == 1, "\(byNumber)")
        #expect(byNumber.value("vehicleType.category") as? Int == 1)
        let escaped = try await client.send(
            .GET, "\(Self.p)/vehicles/v-enum-numbers?%24alt=json%3Benum-encoding%3Dint", token: Tokens.server)
        #expect(escaped.value("vehicleState") as? Int == 1, "percent-escaped: \(escaped)")
        let listed = try await client.send(
            .GET, "\(Self.p)/vehicles?vehicleTypeCategories=AUTO&pageSize=100&$alt=json;enum-encoding=int",
            token: Tokens.server)
        #expect(listed.status == 200, "\(listed)")
        let vehicles = try #require(listed.value("vehicles") as? [[String: Any]])
        #expect(vehicles.allSatisfy { $0["vehicleState"] is Int })
        let listedByNumber = try await client.send(
            .GET, "\(Self.p)/vehicles?vehicleTypeCategories=1&vehicleState=1&pageSize=100", token: Tokens.server)
        let offline = try #require(listedByNumber.value("vehicles") as? [[String: Any]], "\(listedByNumber)")
        #expect(offline.contains { $0["name"] as? String == "providers/\(TestKeys.project)/vehicles/v-enum-numbers" })
        #expect(offline.allSatisfy { $0["vehicleState"] as? String == "OFFLINE" })
    }

    /// An enum's first value is proto3's "not set", which a listing cannot filter by: by number or
    /// by name it is refused, as the REST door's document says (schemathesis found
    /// `vehicleState=0` answered 200).
    @Test(arguments: [
        "vehicleState=0", "vehicleState=UNKNOWN_VEHICLE_STATE", "tripTypes=0", "tripTypes=UNKNOWN_TRIP_TYPE",
        "vehicleTypeCategories=0", "vehicleState=7", "tripTypes=SHARED&tripTypes=PARKED",
    ])
    func listingsRefuseTheUnsetValueAsAFilter(filter: String) async throws {
        let client = try await TestEngine.shared
        let answer = try await client.send(
            .GET, "\(Self.p)/vehicles?vehicleTypeCategories=AUTO&\(filter)", token: Tokens.server)
        #expect(answer.status == 400, "\(filter): \(answer)")
    }

    /// A plus is `%2B` in a form-encoded query; names are percent-decoded too.
    @Test func aPlusInAnIdIsSentEncoded() async throws {
        let client = try await TestEngine.shared
        let created = try await client.send(
            .POST, "\(Self.p)/trips?trip%49d=plus%2Bone", token: Tokens.server, body: Fixtures.tripBody(vehicleID: nil))
        #expect(created.status == 200, "\(created)")
        #expect(created.value("name") as? String == "providers/\(TestKeys.project)/trips/plus+one")
    }

    @Test func theServerStampsServerTime() async throws {
        let client = try await TestEngine.shared
        let before = Date()
        let response = try await client.send(
            .PUT, "\(Self.p)/vehicles/v-stamp?updateMask=lastLocation", token: Tokens.server,
            body:
                #"{"lastLocation":{"location":{"latitude":52.53,"longitude":13.41},"serverTime":"2001-01-01T00:00:00Z"}}"#
        )
        #expect(response.status == 200, "\(response)")
        let stamped = try #require(
            (response.value("lastLocation.serverTime") as? String).flatMap {
                try? Google_Protobuf_Timestamp(jsonString: "\"\($0)\"").date
            })
        #expect(stamped.timeIntervalSince(before) > -1 && stamped.timeIntervalSinceNow < 1, "\(stamped)")
        #expect(response.value("name") as? String == "providers/\(TestKeys.project)/vehicles/v-stamp")
    }
}
