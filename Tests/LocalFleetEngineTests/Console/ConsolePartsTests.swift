import FleetAuthServerHTTP
import FleetEngineProtos
import FleetTokens
import Foundation
import TestSupport
import Testing

@testable import LocalFleetEngine

/// The console's parts on their own: the request log, the replay's marks, the export document
/// and the access rules.
@Suite("Console parts")
struct ConsolePartsTests {
    // MARK: Request log

    private func verified(_ token: String) throws -> VerifiedToken {
        try TokenVerifier(trusting: TestKeys.trustedAccounts).verify(token)
    }

    @Test("A call's body is kept as a JSON object up to 16 KiB, through either door, and not past it")
    func requestBodies() throws {
        #expect(
            RequestBody.rest(Array(#"{"lastLocation":{"location":{"latitude":1}}}"#.utf8))?.value
                == .object(["lastLocation": .object(["location": .object(["latitude": .number(1)])])]))
        #expect(RequestBody.rest(Array("[1,2]".utf8))?.value == nil, "not an object")
        #expect(RequestBody.rest([UInt8]()) == nil)
        #expect(RequestBody.rest(Array(repeating: UInt8(ascii: " "), count: RequestBody.maximumKeptBytes + 1)) == nil)

        var vehicle = Maps_Fleetengine_V1_Vehicle()
        vehicle.name = "providers/p/vehicles/v-1"
        #expect(RequestBody.grpc(vehicle)?.value == .object(["name": .string("providers/p/vehicles/v-1")]))
        vehicle.attributes = (0..<400).map { index in
            .with {
                $0.key = "k\(index)"; $0.stringValue = String(repeating: "v", count: 40)
            }
        }
        #expect(RequestBody.grpc(vehicle) == nil, "a message over 16 KiB is not kept")
    }

    @Test("The log keeps the newest calls up to its capacity, pages them newest first and filters them")
    func requestLog() throws {
        let log = RequestLog(capacity: 5)
        let driver = try verified(Tokens.driver("v-1"))
        for index in 1...8 {
            let refusal: APIError? = index.isMultiple(of: 2) ? .permissionDenied("rule \(index)") : nil
            log.record(
                door: index.isMultiple(of: 3) ? "grpc" : "rest", method: "UpdateVehicle",
                note: CallNote(keepsBody: true, token: driver, resource: "v-\(index)"), refusal: refusal,
                elapsed: .microseconds(1500))
        }
        #expect(log.totals == RequestTotals(calls: 8, refused: 4))
        let all = log.page(RequestFilter(), before: nil, limit: 100)
        #expect(all.map(\.sequence) == [8, 7, 6, 5, 4])
        #expect(all.first?.rule == "rule 8")
        #expect(all.first?.httpStatus == 403)
        #expect(all.first?.signer == TestKeys.driver.clientEmail)
        #expect(all.first?.role == "driver")
        #expect(all.first?.claims?["vehicleid"] == "v-1")
        #expect(all.first?.latencyMicroseconds == 1500)
        #expect(log.page(RequestFilter(), before: 7, limit: 2).map(\.sequence) == [6, 5])
        #expect(log.page(RequestFilter(status: "refused"), before: nil, limit: 10).map(\.sequence) == [8, 6, 4])
        #expect(log.page(RequestFilter(status: "403"), before: nil, limit: 10).count == 3)
        #expect(log.page(RequestFilter(status: "OK"), before: nil, limit: 10).map(\.sequence) == [7, 5])
        #expect(log.page(RequestFilter(resource: "v-6"), before: nil, limit: 10).map(\.sequence) == [6])
        #expect(log.page(RequestFilter(role: "consumer"), before: nil, limit: 10).isEmpty)
        #expect(log.page(RequestFilter(method: "GetVehicle"), before: nil, limit: 10).isEmpty)
    }

    // MARK: Replay

    private func point(_ latitude: Double, _ longitude: Double, _ time: Double) -> TrailPoint {
        TrailPoint(latitude: latitude, longitude: longitude, time: time)
    }

    @Test(
        "A replay marks a gap over 60 s, a dwell of 2 minutes within 20 m and a jump over 240 km/h, and nothing on a steady drive"
    )
    func trailMarks() {
        // A steady drive: 10 m every 5 s (7.2 km/h).
        let steady = (0..<20).map { point(52.5 + Double($0) * 0.00009, 13.4, 1000 + Double($0) * 5) }
        let calm = TrailAnalysis(steady)
        #expect(calm.gaps.isEmpty && calm.dwells.isEmpty && calm.jumps.isEmpty)
        #expect(calm.points.count == 20)

        var trail = steady
        // 61 s without an update.
        trail.append(point(52.5018, 13.4, 1095 + 61))
        // Then 125 s standing within a few metres.
        for step in 1...25 {
            trail.append(point(52.5018 + (step.isMultiple(of: 2) ? 0.00005 : 0), 13.4, 1156 + Double(step) * 5))
        }
        // Then 1.2 km in 5 s: 864 km/h.
        let last = trail.last!
        trail.append(point(last.latitude + 0.0108, 13.4, last.time + 5))
        let marks = TrailAnalysis(trail)
        #expect(marks.gaps == [.init(from: 1095, to: 1156, seconds: 61)])
        #expect(marks.dwells.count == 1)
        // It began at the last point before the gap, 1 m away.
        #expect(marks.dwells.first.map { $0.seconds >= 120 && $0.from == 1095 } == true)
        #expect(marks.jumps.count == 1)
        #expect(marks.jumps.first.map { ($0.kilometersPerHour ?? 0) > 800 } == true)
    }

    @Test("A gap is also ten times the median interval: 30 s between updates that came every second")
    func gapAgainstTheMedian() {
        var trail = (0..<30).map { point(52.5 + Double($0) * 0.00001, 13.4, Double($0)) }
        trail.append(point(52.5004, 13.4, 29 + 30))
        #expect(TrailAnalysis(trail).gaps.map(\.seconds) == [30])
    }

    @Test("A vehicle's trail keeps its newest positions, in time order, and skips a repeated one")
    func trailRing() {
        var trail = LocationTrail(capacity: 3)
        for time in [1.0, 2, 2, 3, 4] { trail.append(point(1, 1, time)) }
        #expect(trail.points().map(\.time) == [2, 3, 4])
        #expect(trail.points(from: 3, to: 3).map(\.time) == [3])
    }

    // MARK: Export document

    private var snapshot: ProviderSnapshot {
        var vehicle = Vehicle()
        vehicle.vehicleState = .online
        vehicle.lastLocation.location = LatLng(latitude: 52.5, longitude: 13.4)
        var trip = Trip()
        trip.vehicleID = "v-1"
        trip.tripStatus = .enrouteToPickup
        var deliveryVehicle = DeliveryVehicle()
        deliveryVehicle.lastLocation.location = LatLng(latitude: 48.1, longitude: 11.5)
        var task = DeliveryTask()
        task.deliveryVehicleID = "d-1"
        task.plannedLocation.point = LatLng(latitude: 48.2, longitude: 11.6)
        return ProviderSnapshot(
            vehicles: ["v-1": vehicle, "v-2": Vehicle()], trips: ["t-1": trip],
            deliveryVehicles: ["d-1": deliveryVehicle], tasks: ["k-1": task])
    }

    @Test("A document read back into another provider is the same state, renamed, and writes the same bytes")
    func documentRoundTrip() throws {
        let document = try FleetDocument.encode(snapshot, provider: "fleet-a")
        let text = String(decoding: document, as: UTF8.self)
        #expect(
            text.hasPrefix(
                #"{"format":"fleetauth-fleet-engine","version":1,"provider":"fleet-a","vehicles":[{"name":"providers/fleet-a/vehicles/v-1""#
            ))
        let read = try FleetDocument.decode(document, provider: "fleet-b")
        #expect(read.vehicles.keys.sorted() == ["v-1", "v-2"])
        #expect(read.vehicles["v-1"]?.name == "providers/fleet-b/vehicles/v-1")
        #expect(read.tasks["k-1"]?.plannedLocation.point.latitude == 48.2)
        #expect(try FleetDocument.encode(read, provider: "fleet-a") == document)
    }

    @Test(arguments: [
        (#"[1]"#, "the document is not a JSON object"),
        (#"{"format":"other","version":1}"#, #"the document's "format" is not "fleetauth-fleet-engine""#),
        (#"{"format":"fleetauth-fleet-engine","version":2}"#, #"the document's "version" is not 1"#),
        (#"{"format":"fleetauth-fleet-engine","version":1,"cars":[]}"#, #"the document has an unknown field "cars""#),
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"vehicles":{}}"#,
            #"the document's "vehicles" is not a list"#
        ),
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"vehicles":[{"name":"vehicles/v-1"}]}"#,
            "vehicles[0] has name 'vehicles/v-1', not providers/{provider}/vehicles/{id}"
        ),
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"vehicles":[{"name":"providers/p/vehicles/v 1"}]}"#,
            "vehicles[0]'s id "
        ),
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"vehicles":[{"name":"providers/p/vehicles/v"},{"name":"providers/p/vehicles/v"}]}"#,
            "vehicles has 'v' twice"
        ),
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"trips":[{"name":"providers/p/trips/t","vehicleId":"v"}]}"#,
            "trip 't' is assigned to vehicle 'v', which the document does not have"
        ),
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"vehicles":[{"name":"providers/p/vehicles/v","wheels":4}]}"#,
            "vehicles[0] is not a Fleet Engine vehicles resource"
        ),
        // A position off the earth would trap the spatial index at every start, not only once.
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"vehicles":[{"name":"providers/p/vehicles/v","lastLocation":{"location":{"latitude":"NaN","longitude":0}}}]}"#,
            "vehicle 'v'.lastLocation.location.latitude is nan"
        ),
        (
            #"{"format":"fleetauth-fleet-engine","version":1,"trips":[{"name":"providers/p/trips/t","pickupPoint":{"point":{"latitude":1e300,"longitude":0}}}]}"#,
            "trip 't'.pickupPoint.point.latitude is 1e+300"
        ),
    ])
    func aBadDocumentIsRefusedByName(document: String, refusal: String) {
        do {
            _ = try FleetDocument.decode(Data(document.utf8), provider: "p")
            Issue.record("\(document) was read")
        } catch {
            #expect(error.description.hasPrefix(refusal), "\(error.description)")
        }
    }

    // MARK: Marks

    @Test("Marks name states as Fleet Engine's JSON does, several words and all")
    func markStateNames() {
        var trip = Trip()
        trip.tripStatus = .enrouteToPickup
        #expect(MapMark(trip: trip, id: "t").state == "ENROUTE_TO_PICKUP")
        var vehicle = Vehicle()
        vehicle.vehicleState = .online
        #expect(MapMark(vehicle: vehicle, id: "v").state == "ONLINE")
        var task = DeliveryTask()
        task.taskOutcome = .succeeded
        task.state = .closed
        let mark = MapMark(task: task, id: "k")
        #expect(mark.state == "CLOSED" && mark.result == "SUCCEEDED")
        #expect(MapMark(.deletedVehicle(id: "v")) == .removed(.vehicle, id: "v"))
    }

    // MARK: Access

    @Test("The console is open on loopback, off elsewhere unless keyed, and off when turned off")
    func accessChoice() {
        #expect(ConsoleAccess.choose(enabled: true, key: nil, host: "127.0.0.1") == .loopback)
        #expect(ConsoleAccess.choose(enabled: true, key: nil, host: "::1") == .loopback)
        #expect(ConsoleAccess.choose(enabled: true, key: nil, host: "localhost") == .loopback)
        #expect(ConsoleAccess.choose(enabled: true, key: nil, host: "0.0.0.0") == .off)
        #expect(ConsoleAccess.choose(enabled: true, key: nil, host: "10.0.0.5") == .off)
        #expect(ConsoleAccess.choose(enabled: true, key: "k", host: "0.0.0.0") == .key("k"))
        #expect(ConsoleAccess.choose(enabled: false, key: "k", host: "127.0.0.1") == .off)
    }

    @Test("A loopback console answers loopback names only; a keyed one the right key only")
    func accessRefusals() {
        let loopback = ConsoleAccess.loopback
        #expect(loopback.refusal(host: "127.0.0.1:8081", key: nil) == nil)
        #expect(loopback.refusal(host: "localhost:8081", key: nil) == nil)
        #expect(loopback.refusal(host: "[::1]:8081", key: nil) == nil)
        #expect(loopback.refusal(host: "attacker.example:8081", key: nil) != nil)
        #expect(loopback.refusal(host: "127.0.0.1.attacker.example", key: nil) != nil)
        #expect(loopback.refusal(host: nil, key: nil) != nil)
        let keyed = ConsoleAccess.key("a-key-of-sixteen-chars")
        #expect(keyed.refusal(host: "fleet.example", key: "a-key-of-sixteen-chars") == nil)
        #expect(keyed.refusal(host: "fleet.example", key: "a-key-of-sixteen-char") == "the console key is wrong")
        #expect(keyed.refusal(host: "fleet.example", key: nil) == "the console needs its key: give it in X-Console-Key")
    }
}
