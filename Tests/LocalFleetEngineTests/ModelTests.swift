import Foundation
import LocalFleetEngine
import Testing

@Suite("Proto3 JSON models and rules")
struct ModelTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0, 0), ("2026-11-21T16:30:00.250Z", 1_795_278_600, 250_000_000),
        ("2000-02-29T23:59:59.000000001Z", 951_868_799, 1), ("1969-12-31T23:59:59.5Z", -1, 500_000_000),
        ("2026-11-21T18:30:00+02:00", 1_795_278_600, 0), ("2026-11-21t16:30:00z", 1_795_278_600, 0),
    ])
    func parsesRFC3339(text: String, seconds: Int64, nanos: Int32) throws {
        let timestamp = try #require(ProtoTimestamp(rfc3339: text))
        #expect(timestamp == ProtoTimestamp(seconds: seconds, nanos: nanos))
        #expect(ProtoTimestamp(rfc3339: timestamp.description) == timestamp)
    }

    @Test(arguments: ["", "2026-11-21", "2026-11-21T16:30:00", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-11-21T24:00:00Z",
                      "2026-11-21T16:30:00.Z", "2026-11-21T16:30:00.1234567891Z", "0000-01-01T00:00:00Z", "2026-11-21T16:30:00Z trailing"])
    func refusesWhatIsNotRFC3339(text: String) {
        #expect(ProtoTimestamp(rfc3339: text) == nil)
    }

    @Test(arguments: [
        ("300s", Duration.seconds(300)), ("1.5s", .milliseconds(1500)), ("-1.5s", .milliseconds(-1500)),
        ("-0.000000001s", .nanoseconds(-1)), ("0.0001s", .microseconds(100)), ("315576000000s", .seconds(315_576_000_000)),
    ])
    func readsProto3Durations(text: String, duration: Duration) throws {
        #expect(try #require(ProtoDuration(text: text)).duration == duration)
    }

    /// The reader once took any number `Double` reads: `1e300s` trapped (1e303 ms converted to
    /// `Int64`), and exponents, hexadecimal and more than 10,000 years passed. FuzzTimes now
    /// holds it to swift-protobuf's reading.
    @Test(arguments: ["1e300s", "1e3s", "0x10s", "infs", "nans", "1.5", "s", "+1s", "1.0000000001s",
                      "315576000001s", " 1s", "1 s", "\"1s", "\\u0031s"])
    func refusesWhatIsNotAProto3Duration(text: String) {
        #expect(ProtoDuration(text: text) == nil)
    }

    @Test func writesProtobufFractions() {
        #expect(ProtoTimestamp(seconds: 0).description == "1970-01-01T00:00:00Z")
        #expect(ProtoTimestamp(seconds: 0, nanos: 120_000_000).description == "1970-01-01T00:00:00.120Z")
        #expect(ProtoTimestamp(seconds: 0, nanos: 120_000).description == "1970-01-01T00:00:00.000120Z")
        #expect(ProtoTimestamp(seconds: 0, nanos: 7).description == "1970-01-01T00:00:00.000000007Z")
        #expect(ProtoTimestamp(seconds: 253_402_300_799).description == "9999-12-31T23:59:59Z")
    }

    @Test func fieldMasksAcceptCamelAndSnakeCase() throws {
        #expect(try FieldMask.parse("lastLocation", as: VehicleField.self) == [.lastLocation])
        #expect(try FieldMask.parse("last_location, vehicle_state", as: VehicleField.self) == [.lastLocation, .vehicleState])
        #expect(try FieldMask.parse("trip_status", as: TripField.self) == [.tripStatus])
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

    @Test(arguments: [(90.0, 180.0, true), (-90, -180, true), (90.0001, 0, false), (0, 180.0001, false), (.nan, 0, false),
                      (0, .infinity, false), (-.infinity, 0, false)])
    func coordinates(latitude: Double, longitude: Double, valid: Bool) {
        let check = { () throws(InvalidArgument) in try LatLng(latitude: latitude, longitude: longitude).validate(field: "p") }
        if valid { #expect(throws: Never.self, performing: check) } else { #expect(throws: InvalidArgument.self, performing: check) }
    }

    @Test func distances() {
        let berlin = LatLng(latitude: 52.52, longitude: 13.405)
        let potsdam = LatLng(latitude: 52.3906, longitude: 13.0645)
        #expect(abs(berlin.distance(to: potsdam) - 26_900) < 300)
        #expect(berlin.distance(to: berlin) == 0)
        #expect(abs(LatLng(latitude: 0, longitude: 0).distance(to: LatLng(latitude: 1, longitude: 0)) - 111_195) < 10)
    }

    @Test func vehiclesDecodeCamelCaseAndRefuseUnknownFields() throws {
        let decoder = JSONDecoder()
        let vehicle = try decoder.decode(Vehicle.self, from: Data(#"{"vehicleState":"ONLINE","lastLocation":{"location":{"latitude":1,"longitude":2},"updateTime":"2026-11-21T16:30:00Z"}}"#.utf8))
        #expect(vehicle.vehicleState == .online)
        #expect(vehicle.lastLocation?.location == LatLng(latitude: 1, longitude: 2))
        #expect(throws: DecodingError.self) { try decoder.decode(Vehicle.self, from: Data(#"{"lastLocation":{"rawLocation":{}}}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Vehicle.self, from: Data(#"{"vehicleState":"PARKED"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Vehicle.self, from: Data(#"{"vehicle_state":"ONLINE","color":"red"}"#.utf8)) }
    }

    @Test func creationNeedsGooglesRequiredFields() {
        let complete = Vehicle(vehicleState: .offline, supportedTripTypes: [.exclusive], maximumCapacity: 4, vehicleType: VehicleType(category: .auto))
        #expect(throws: Never.self) { try complete.validateForCreation() }
        var noState = complete
        noState.vehicleState = nil
        var noCapacity = complete
        noCapacity.maximumCapacity = nil
        var unknownType = complete
        unknownType.vehicleType = VehicleType(category: .unknown)
        for incomplete in [noState, noCapacity, unknownType] {
            #expect(throws: InvalidArgument.self) { try incomplete.validateForCreation() }
        }
        var tooMany = complete
        tooMany.attributes = (0...Vehicle.maximumAttributes).map { VehicleAttribute(key: "k\($0)", stringValue: "v") }
        #expect(throws: InvalidArgument.self) { try tooMany.validateForCreation() }
    }

    @Test func finishedTripsKeepTheirStatus() {
        let done = Trip(tripStatus: .complete)
        #expect(throws: InvalidArgument.self) { try Trip(tripStatus: .enrouteToDropoff).validateStatusChange(from: done, fields: [.tripStatus]) }
        #expect(throws: Never.self) { try Trip(tripStatus: .complete).validateStatusChange(from: done, fields: [.tripStatus]) }
        #expect(throws: Never.self) { try Trip(tripStatus: .arrivedAtPickup).validateStatusChange(from: Trip(tripStatus: .new), fields: [.tripStatus]) }
    }
}

@Suite("Proto3 JSON writer")
struct ProtoJSONWriterTests {
    @Test func writtenResourcesReadBackEqual() throws {
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
        let json = vehicle.protoJSON
        #expect(try JSONSerialization.jsonObject(with: Data(json)) is [String: Any])
        #expect(try JSONDecoder().decode(Vehicle.self, from: Data(json)) == vehicle)
        #expect(!String(decoding: json, as: UTF8.self).contains("\\/"))

        let trip = Trip(name: "providers/p/trips/t1", vehicleId: "v1", tripStatus: .enrouteToDropoff, tripType: .exclusive,
                        pickupPoint: TerminalLocation(point: LatLng(latitude: 0, longitude: -180)), numberOfPassengers: 2)
        #expect(try JSONDecoder().decode(Trip.self, from: Data(trip.protoJSON)) == trip)
    }

    @Test func unsetFieldsAreLeftOut() {
        #expect(String(decoding: Vehicle().protoJSON, as: UTF8.self) == "{}")
        #expect(String(decoding: SearchVehiclesResponse(matches: []).protoJSON, as: UTF8.self) == "{}")
        #expect(String(decoding: Vehicle(vehicleState: .offline, maximumCapacity: 1).protoJSON, as: UTF8.self)
            == #"{"vehicleState":"OFFLINE","maximumCapacity":1}"#)
    }
}
