import FleetAuthServerHTTP
import FleetEngineProtos
import Foundation
import SwiftProtobuf
import Testing

@testable import LocalFleetEngine

/// How the REST door reads and writes the engine's messages: proto3 JSON through swift-protobuf,
/// whose refusals must name the field at fault, and the store's documents, which are the same
/// JSON.
@Suite("Wire: proto3 JSON of the engine's messages")
struct WireTests {
    static let vehicle: Vehicle = {
        var vehicle = Vehicle(
            vehicleState: .online, supportedTripTypes: [.shared, .exclusive],
            lastLocation: VehicleLocation(
                at: LatLng(latitude: -33.8568, longitude: 151.2153), heading: 359),
            maximumCapacity: 7,
            attributes: [VehicleAttribute(key: "quote\"back\\slash", stringValue: "line\nbreak\ttab\u{01}é✓")],
            category: .twoWheeler)
        vehicle.name = "providers/p/vehicles/v1"
        vehicle.attributes.append(
            .with {
                $0.key = "flag"; $0.boolValue = false
            })
        vehicle.currentTrips = ["t1", "t2"]
        vehicle.lastLocation.latlngAccuracy = .init(1e-7)
        vehicle.lastLocation.isRoadSnapped = .init(true)
        vehicle.lastLocation.locationSensor = .gps
        vehicle.lastLocation.updateTime = .init(seconds: 1_795_278_600, nanos: 120_000_000)
        vehicle.lastLocation.serverTime = .init(seconds: 1_795_278_601, nanos: 7)
        return vehicle
    }()

    @Test func resourcesSurviveJSONBothWays() throws {
        let json = try Self.vehicle.jsonString()
        #expect(try Vehicle(jsonString: json) == Self.vehicle)
        #expect(json.contains(#""currentTrips":["t1","t2"]"#))
        #expect(json.contains(#""updateTime":"2026-11-21T16:30:00.120Z""#), "\(json)")
        #expect(json.contains(#""vehicleState":"ONLINE""#))

        var trip = Trip(
            vehicleID: "v1", tripStatus: .enrouteToDropoff, tripType: .exclusive,
            pickup: LatLng(latitude: 0, longitude: -180))
        trip.numberOfPassengers = 2
        #expect(try Trip(jsonString: trip.jsonString()) == trip)
    }

    @Test func unsetFieldsAreLeftOut() throws {
        #expect(try Vehicle().jsonString() == "{}")
        #expect(
            try Vehicle(vehicleState: .offline, maximumCapacity: 1).jsonString()
                == #"{"vehicleState":"OFFLINE","maximumCapacity":1}"#)
    }

    @Test func bodiesTakeCamelCaseSnakeCaseAndEnumNumbers() throws {
        let body =
            #"{"vehicle_state":2,"lastLocation":{"location":{"latitude":1,"longitude":2},"update_time":"2026-11-21T18:30:00+02:00"}}"#
        let vehicle = try ProtoJSONBody.decode(Vehicle.self, from: Array(body.utf8))
        #expect(vehicle.vehicleState == .online)
        #expect(vehicle.lastLocation.location == LatLng(latitude: 1, longitude: 2))
        #expect(vehicle.lastLocation.updateTime == Google_Protobuf_Timestamp(seconds: 1_795_278_600))
    }

    /// An enum number the .proto does not define reaches the rules (proto3 keeps it), which
    /// refuse it by name, whether the update mask names its field or not.
    @Test func undefinedEnumNumbersAreRefusedByTheRules() throws {
        let vehicle = try ProtoJSONBody.decode(
            Vehicle.self, from: Array(#"{"vehicleState":9,"maximumCapacity":2}"#.utf8))
        #expect(vehicle.vehicleState == .UNRECOGNIZED(9))
        for mask: Set<VehicleField> in [[.vehicleState], [.maximumCapacity]] {
            #expect {
                try vehicle.validateUpdate(of: mask)
            } throws: { error in
                "\(error)" == "vehicleState is 9, which is not a value of Fleet Engine's API"
            }
        }
        let trip = try ProtoJSONBody.decode(Trip.self, from: Array(#"{"tripStatus":42}"#.utf8))
        #expect(throws: InvalidArgument.self) { try trip.validateUpdate(of: [.numberOfPassengers]) }
    }

    /// Refused bodies and the words that must be in the refusal: the field's path and value.
    @Test(arguments: [
        (#"{"color":"red"}"#, #"unknown field "color""#),
        (#"{"lastLocation":{"location":{"latitude":1,"z":3}}}"#, #"unknown field "lastLocation.location.z""#),
        (#"{"vehicleState":"PARKED"}"#, #"vehicleState is "PARKED": not a name or number of its enum"#),
        (
            #"{"lastLocation":{"location":{"latitude":"north"}}}"#,
            #"lastLocation.location.latitude is "north": not a valid number"#
        ),
        (
            #"{"attributes":[{"key":"a","boolValue":true},{"key":"b","boolValue":"yes"}]}"#,
            #"attributes[1].boolValue is "yes""#
        ),
        (
            #"{"lastLocation":{"updateTime":"yesterday"}}"#,
            #"lastLocation.updateTime is "yesterday": not an RFC 3339 time"#
        ),
        (#"{"maximumCapacity":1.5}"#, "maximumCapacity is 1.5"),
        (
            #"{"attributes":[{"key":"a","boolValue":true,"numberValue":1}]}"#,
            "attributes[0] is an object: it sets more than one field of a oneof"
        ),
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
