import FleetEngineProtos
import Foundation
import SwiftProtobuf
import Testing

@testable import LocalFleetEngine

@Suite("Model rules")
struct ModelTests {
    @Test(arguments: [
        ("300s", Duration.seconds(300)), ("1.5s", .milliseconds(1500)), ("-1.5s", .milliseconds(-1500)),
        ("-0.000000001s", .nanoseconds(-1)), ("0.0001s", .microseconds(100)),
        ("315576000000s", .seconds(315_576_000_000)),
    ])
    func readsProto3Durations(text: String, duration: Duration) throws {
        #expect(try #require(ProtoDuration(text: text)).duration == duration)
    }

    /// The reader once took any number `Double` reads: `1e300s` trapped (1e303 ms converted to
    /// `Int64`), and exponents, hexadecimal and more than 10,000 years passed. FuzzTimes now
    /// holds it to swift-protobuf's reading.
    @Test(arguments: [
        "1e300s", "1e3s", "0x10s", "infs", "nans", "1.5", "s", "+1s", "1.0000000001s",
        "315576000001s", " 1s", "1 s", "\"1s", "\\u0031s",
    ])
    func refusesWhatIsNotAProto3Duration(text: String) {
        #expect(ProtoDuration(text: text) == nil)
    }

    @Test func fieldMasksAcceptCamelAndSnakeCase() throws {
        #expect(try FieldMask.parse("lastLocation", as: VehicleField.self) == [.lastLocation])
        #expect(
            try FieldMask.parse("last_location, vehicle_state", as: VehicleField.self) == [
                .lastLocation, .vehicleState,
            ])
        #expect(try FieldMask.parse("trip_status", as: TripField.self) == [.tripStatus])
    }

    @Test(arguments: [
        ("last_location", "lastLocation"), ("lastLocation", "lastLocation"), ("a__b", "aB"), ("a_", "a"),
        ("_x", "X"), ("a_1b", "a1b"), ("", ""),
    ])
    func snakeCaseBecomesCamelCase(path: String, expected: String) {
        #expect(FieldMask.camelCase(path) == expected)
    }

    /// `FieldMask.parse` takes a mask equal to one field's name without splitting it, which is
    /// only right while no name has what the splitting treats specially.
    @Test func noUpdatableFieldNameHasASeparator() {
        let names = VehicleField.allCases.map(\.rawValue) + TripField.allCases.map(\.rawValue)
        for name in names {
            #expect(!name.contains { $0 == "_" || $0 == "," || $0 == " " }, "\(name)")
        }
    }

    @Test(arguments: [nil, "", " , ", "name", "currentTrips", "lastLocation.location", "last-location"])
    func fieldMasksRefuseUnknownOrMissingPaths(mask: String?) {
        #expect(throws: InvalidArgument.self) { try FieldMask.parse(mask, as: VehicleField.self) }
    }

    @Test(arguments: [
        (90.0, 180.0, true), (-90, -180, true), (90.0001, 0, false), (0, 180.0001, false), (.nan, 0, false),
        (0, .infinity, false), (-.infinity, 0, false),
    ])
    func coordinates(latitude: Double, longitude: Double, valid: Bool) {
        let check = { () throws(InvalidArgument) in
            try LatLng(latitude: latitude, longitude: longitude).validate(field: "p")
        }
        if valid {
            #expect(throws: Never.self, performing: check)
        } else {
            #expect(throws: InvalidArgument.self, performing: check)
        }
    }

    @Test func distances() {
        let berlin = LatLng(latitude: 52.52, longitude: 13.405)
        let potsdam = LatLng(latitude: 52.3906, longitude: 13.0645)
        #expect(abs(berlin.distance(to: potsdam) - 26_900) < 300)
        #expect(berlin.distance(to: berlin) == 0)
        #expect(abs(LatLng(latitude: 0, longitude: 0).distance(to: LatLng(latitude: 1, longitude: 0)) - 111_195) < 10)
    }

    @Test func creationNeedsGooglesRequiredFields() {
        let complete = Vehicle(
            vehicleState: .offline, supportedTripTypes: [.exclusive], maximumCapacity: 4, category: .auto)
        #expect(throws: Never.self) { try complete.validateForCreation() }
        var noState = complete
        noState.vehicleState = .unknownVehicleState
        var noCapacity = complete
        noCapacity.maximumCapacity = 0
        var unknownType = complete
        unknownType.vehicleType.category = .unknown
        var undefinedState = complete
        undefinedState.vehicleState = .UNRECOGNIZED(7)
        var negativeCapacity = complete
        negativeCapacity.maximumCapacity = -1
        for incomplete in [noState, noCapacity, unknownType, undefinedState, negativeCapacity] {
            #expect(throws: InvalidArgument.self) { try incomplete.validateForCreation() }
        }
        var tooMany = complete
        tooMany.attributes = (0...Vehicle.maximumAttributes).map { VehicleAttribute(key: "k\($0)", stringValue: "v") }
        #expect(throws: InvalidArgument.self) { try tooMany.validateForCreation() }
    }

    /// An update copies the masked fields only, and an unset message field stays unset.
    @Test func updatesCopyTheMaskedFields() {
        let current = Vehicle(
            vehicleState: .online, lastLocation: VehicleLocation(at: LatLng(latitude: 1, longitude: 2)),
            maximumCapacity: 4)
        let update = Vehicle(vehicleState: .offline, maximumCapacity: 2)
        let updated = current.applying(update, fields: [.vehicleState, .lastLocation])
        #expect(updated.vehicleState == .offline)
        #expect(!updated.hasLastLocation)
        #expect(updated.maximumCapacity == 4)
    }

    /// gRPC can carry fields the engine's .proto files leave out, at any depth; the rules refuse
    /// them by number and message type.
    @Test func fieldsTheEngineDoesNotKeepAreRefused() throws {
        var location = VehicleLocation(at: LatLng(latitude: 1, longitude: 2))
        var bytes: [UInt8] = try location.serializedBytes()
        bytes += [0xA8, 0x02, 0x01]  // field 37, varint 1
        location = try VehicleLocation(serializedBytes: bytes)
        let vehicle = Vehicle(
            vehicleState: .offline, supportedTripTypes: [.exclusive], lastLocation: location, maximumCapacity: 4,
            category: .auto)
        #expect {
            try vehicle.validateForCreation()
        } throws: { error in
            "\(error)".contains("field number 37 of maps.fleetengine.v1.VehicleLocation")
        }
    }

    @Test func finishedTripsKeepTheirStatus() {
        let done = Trip(tripStatus: .complete)
        #expect(throws: InvalidArgument.self) {
            try Trip(tripStatus: .enrouteToDropoff).validateStatusChange(from: done, fields: [.tripStatus])
        }
        #expect(throws: Never.self) {
            try Trip(tripStatus: .complete).validateStatusChange(from: done, fields: [.tripStatus])
        }
        #expect(throws: Never.self) {
            try Trip(tripStatus: .arrivedAtPickup).validateStatusChange(
                from: Trip(tripStatus: .new), fields: [.tripStatus])
        }
    }
}
