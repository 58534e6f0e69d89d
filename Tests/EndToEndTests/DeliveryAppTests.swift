import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import TestSupport
import Testing
import TokenServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delivery apps on the real servers: a driver app reports its locations and its stops
/// with ``DeliveryVehicleReporter``, a consumer app follows the shipment with
/// ``ShipmentFollower``, each with tokens from the token server.
@Suite("delivery apps")
struct DeliveryAppTests {
    static let depot = LatLng(latitude: 52.50, longitude: 13.40)

    /// Creates delivery vehicle `van` with the tasks `parcel-a` and `parcel-b` of shipment
    /// `shipment`, on two stops, through the local Fleet Engine's REST door with a delivery
    /// server token; accounts `delivery-driver-0` and `delivery-consumer-0` are assigned to them.
    static func plan(on fleet: TestFleet) async throws -> FleetEngineClient {
        let backend = await fleet.client(
            tokens: try ServerTokens(key: TestKeys.deliverySuperUser, clock: fleet.clock) { _ in .deliveryServer })
        _ = try await backend.createDeliveryVehicle(
            DeliveryVehicle(lastLocation: VehicleLocation(location: depot)), id: "van")
        let token = try TokenMinter(key: TestKeys.deliverySuperUser, now: { fleet.clock.now }).mint(.deliveryServer)
            .token
        for (task, latitude) in [("parcel-a", 52.51), ("parcel-b", 52.52)] {
            try await fleet.post(
                "tasks?taskId=\(task)", token: token,
                body: """
                    {"type":"DELIVERY","state":"OPEN","trackingId":"shipment","taskDuration":"60s","plannedLocation":{"point":{"latitude":\(latitude),"longitude":13.40}}}
                    """)
        }
        _ = try await backend.updateStops(
            [
                VehicleStop(at: LatLng(latitude: 52.51, longitude: 13.40), taskIDs: ["parcel-a"]),
                VehicleStop(at: LatLng(latitude: 52.52, longitude: 13.40), taskIDs: ["parcel-b"]),
            ], ofDeliveryVehicle: "van")
        let administration = await fleet.administration
        _ = try await administration.createAccount(
            username: "delivery-driver-0", password: TestFleet.password, roleName: "delivery-driver")
        _ = try await administration.createAccount(
            username: "delivery-consumer-0", password: TestFleet.password, roleName: "delivery-consumer")
        _ = try await administration.assign(Resource(.deliveryVehicle, id: "van"), to: "delivery-driver-0")
        _ = try await administration.assign(Resource(.trackingID, id: "shipment"), to: "delivery-consumer-0")
        return backend
    }

    @Test func aDriverReportsItsWayThroughItsStopsAndAConsumerFollowsTheShipmentToTheEnd() async throws {
        let fleet = try await TestFleet.start(tokenLifetime: .seconds(300))
        _ = try await Self.plan(on: fleet)

        // The untrusted driver app (its token from the token server) reports its locations;
        // its stop progress is refused, as Google's IAM gives it updateLocation only.
        let untrusted = try await fleet.app("delivery-driver-0")
        let reporter = DeliveryVehicleReporter(deliveryVehicleID: "van", client: untrusted.client)
        for step in 1...5 {
            await reporter.report(
                VehicleLocation(location: LatLng(latitude: 52.50 + Double(step) / 1000, longitude: 13.40)))
        }
        await reporter.finish()
        var accepted: [Double] = []
        for await event in reporter.events {
            if case .accepted(let location, _) = event { accepted.append(location.location!.latitude) }
        }
        #expect(accepted.last == 52.505, "the newest location is the last one sent: \(accepted)")
        await #expect(throws: FleetEngineError.self) { try await reporter.arrived() }
        #expect(untrusted.fetcher.current.started == 1, "one token served every report and the refused stop change")

        // The consumer follows the shipment while a trusted driver works through both stops.
        let consumer = try await fleet.app("delivery-consumer-0")
        // A second account of the van, marked trusted: its tokens, from the same token route,
        // are signed by the trusted-driver key, and may move the van through its stops.
        let administration = await fleet.administration
        _ = try await administration.createAccount(
            username: "delivery-trusted-driver-0", password: TestFleet.password, roleName: "delivery-trusted-driver")
        _ = try await administration.assign(Resource(.deliveryVehicle, id: "van"), to: "delivery-trusted-driver-0")
        let trustedClient = try await fleet.app("delivery-trusted-driver-0").client
        let trusted = DeliveryVehicleReporter(deliveryVehicleID: "van", client: trustedClient)
        let progress: [Int: @Sendable () async throws -> DeliveryVehicle] = [
            1: { try await trusted.enroute() }, 2: { try await trusted.arrived() },
            3: { try await trusted.completed() },
            4: { try await trusted.enroute() }, 5: { try await trusted.arrived() },
            6: { try await trusted.completed() },
        ]
        var readings: [(state: TaskTrackingInfo.State?, stops: Int?)] = []
        for try await info in ShipmentFollower(
            trackingID: "shipment", client: consumer.client, interval: .milliseconds(10))
        {
            readings.append((info.state, info.remainingStopCount))
            if let next = progress[readings.count] { _ = try await next() }
        }
        #expect(
            readings.map(\.stops) == [1, 1, 1, 1, 1, 1, nil],
            "the shipment's nearest task answers, then nothing of the vehicle once closed")
        #expect(readings.last?.state == .closed && readings.dropLast().allSatisfy { $0.state == .open })
        let van = try await trustedClient.deliveryVehicle("van")
        #expect(van.remainingVehicleJourneySegments ?? [] == [], "both stops were completed")
        await fleet.stop()
    }
}
