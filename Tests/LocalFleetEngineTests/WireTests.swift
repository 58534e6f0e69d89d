import FleetEngineProtos
import Foundation
import ServerHTTP
import SwiftProtobuf
import Testing

@testable import LocalFleetEngine

/// How both doors read and write resources: the translation between the model and Google's
/// generated messages, and REST's proto3 JSON of those messages through swift-protobuf, whose
/// refusals must name the field at fault.
@Suite("Wire: generated messages and proto3 JSON")
struct WireTests {
    static let vehicle: Vehicle = {
        var vehicle = Vehicle(
            name: "providers/p/vehicles/v1", vehicleState: .online, supportedTripTypes: [.shared, .exclusive],
            lastLocation: VehicleLocation(location: LatLng(latitude: -33.8568, longitude: 151.2153), heading: 359, speed: 0.25,
                                          updateTime: ProtoTimestamp(seconds: 1_795_278_600, nanos: 120_000_000)),
            maximumCapacity: 7,
            attributes: [VehicleAttribute(key: "quote\"back\\slash", stringValue: "line\nbreak\ttab\u{01}é✓"),
                         VehicleAttribute(key: "flag", stringValue: "")],
            vehicleType: VehicleType(category: .twoWheeler))
        vehicle.attributes?[1].stringValue = nil
        vehicle.attributes?[1].boolValue = false
        vehicle.currentTrips = ["t1", "t2"]
        vehicle.lastLocation?.latlngAccuracy = 1e-7
        vehicle.lastLocation?.isRoadSnapped = true
        vehicle.lastLocation?.locationSensor = .gps
        vehicle.lastLocation?.serverTime = ProtoTimestamp(seconds: 1_795_278_601, nanos: 7)
        return vehicle
    }()

    @Test func resourcesSurviveJSONBothWays() throws {
        let json = try Self.vehicle.proto.jsonString()
        var expected = Self.vehicle
        expected.currentTrips = nil  // output only: computed from the trips, never read
        #expect(try Vehicle(proto: Maps_Fleetengine_V1_Vehicle(jsonString: json)) == expected)
        #expect(json.contains(#""currentTrips":["t1","t2"]"#))
        #expect(json.contains(#""updateTime":"2026-11-21T16:30:00.120Z""#), "\(json)")
        #expect(json.contains(#""vehicleState":"ONLINE""#))

        let trip = Trip(name: "providers/p/trips/t1", vehicleId: "v1", tripStatus: .enrouteToDropoff, tripType: .exclusive,
                        pickupPoint: TerminalLocation(point: LatLng(latitude: 0, longitude: -180)), numberOfPassengers: 2)
        #expect(try Trip(proto: Maps_Fleetengine_V1_Trip(jsonString: trip.proto.jsonString())) == trip)
    }

    @Test func unsetFieldsAreLeftOut() throws {
        #expect(try Vehicle().proto.jsonString() == "{}")
        #expect(try Vehicle(vehicleState: .offline, maximumCapacity: 1).proto.jsonString() == #"{"vehicleState":"OFFLINE","maximumCapacity":1}"#)
    }

    @Test func bodiesTakeCamelCaseSnakeCaseAndEnumNumbers() throws {
        let body = #"{"vehicle_state":2,"lastLocation":{"location":{"latitude":1,"longitude":2},"update_time":"2026-11-21T18:30:00+02:00"}}"#
        let vehicle = try Vehicle(proto: ProtoJSONBody.decode(Maps_Fleetengine_V1_Vehicle.self, from: Array(body.utf8)))
        #expect(vehicle.vehicleState == .online)
        #expect(vehicle.lastLocation?.location == LatLng(latitude: 1, longitude: 2))
        #expect(vehicle.lastLocation?.updateTime == ProtoTimestamp(seconds: 1_795_278_600))
    }

    /// Refused bodies and the words that must be in the refusal: the field's path and value.
    @Test(arguments: [
        (#"{"color":"red"}"#, #"unknown field "color""#),
        (#"{"lastLocation":{"location":{"latitude":1,"z":3}}}"#, #"unknown field "lastLocation.location.z""#),
        (#"{"vehicleState":"PARKED"}"#, #"vehicleState is "PARKED": not a name or number of its enum"#),
        (#"{"lastLocation":{"location":{"latitude":"north"}}}"#, #"lastLocation.location.latitude is "north": not a valid number"#),
        (#"{"attributes":[{"key":"a","boolValue":true},{"key":"b","boolValue":"yes"}]}"#, #"attributes[1].boolValue is "yes""#),
        (#"{"lastLocation":{"updateTime":"yesterday"}}"#, #"lastLocation.updateTime is "yesterday": not an RFC 3339 time"#),
        (#"{"maximumCapacity":1.5}"#, "maximumCapacity is 1.5"),
        (#"{"attributes":[{"key":"a","boolValue":true,"numberValue":1}]}"#, "attributes[0] is an object: it sets more than one field of a oneof"),
        (#"{"name":"v1""#, "not valid JSON"),
        ("[]", "must be a JSON object"),
        ("  ", "empty"),
    ])
    func refusalsNameTheField(body: String, phrase: String) {
        #expect {
            _ = try ProtoJSONBody.decode(Maps_Fleetengine_V1_Vehicle.self, from: Array(body.utf8))
        } throws: { error in
            guard let error = error as? APIError else { return false }
            return error.code == .invalidArgument && error.message.contains(phrase)
        }
    }
}
