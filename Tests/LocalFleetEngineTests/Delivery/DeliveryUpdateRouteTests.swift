import Foundation
import TestSupport
import Testing

/// A delivery driver's location update, `PATCH …/deliveryVehicles/{d}`, is answered in the
/// channel pipeline as a vehicle's is (`LocationUpdateRoute`), and the router answers what the
/// pipeline leaves (a percent-escaped path) alike.
@Suite("REST UpdateDeliveryVehicle in the pipeline and through the router")
struct DeliveryUpdateRouteTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let vehicle: String
        let token: String?
        var query = "?updateMask=lastLocation"
        var body = #"{"lastLocation":{"location":{"latitude":10.0002,"longitude":10}}}"#
        let status: Int

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "the driver's own van", vehicle: "route-van", token: Tokens.untrustedDeliveryDriver("route-van"),
            status: 200),
        Case(
            name: "enums by number", vehicle: "route-van-2", token: Tokens.deliveryServer,
            query: "?updateMask=type&$alt=json;enum-encoding=int", body: #"{"type":"BICYCLE"}"#, status: 200),
        Case(name: "no token", vehicle: "route-van", token: nil, status: 401),
        Case(
            name: "another driver's van", vehicle: "route-van", token: Tokens.untrustedDeliveryDriver("elsewhere"),
            status: 403),
        Case(
            name: "an untrusted driver's stops", vehicle: "route-van",
            token: Tokens.untrustedDeliveryDriver("route-van"),
            query: "?updateMask=remainingVehicleJourneySegments", body: #"{"remainingVehicleJourneySegments":[]}"#,
            status: 403),
        Case(
            name: "no update mask", vehicle: "route-van", token: Tokens.untrustedDeliveryDriver("route-van"), query: "",
            status: 400),
        Case(
            name: "an unknown field", vehicle: "route-van", token: Tokens.untrustedDeliveryDriver("route-van"),
            body: #"{"lastLocation":{},"colour":"red"}"#, status: 400),
        Case(name: "no such van", vehicle: "van-none", token: Tokens.deliveryServer, status: 404),
    ]

    @Test("the pipeline route and the router answer alike", arguments: cases)
    func bothAnswerAlike(_ update: Case) async throws {
        let client = try await TestEngine.shared
        if update.vehicle.hasPrefix("route-") {
            let created = try await client.send(
                .POST, "\(Fixtures.provider)/deliveryVehicles?deliveryVehicleId=\(update.vehicle)",
                token: Tokens.deliveryServer, body: #"{"lastLocation":{"location":{"latitude":10,"longitude":10}}}"#)
            try #require(created.status == 200 || created.status == 409, "\(created)")
        }
        func send(_ id: String) async throws -> TestResponse {
            try await client.send(
                .PATCH, "\(Fixtures.provider)/deliveryVehicles/\(id)\(update.query)",
                authorization: update.token.map { "Bearer \($0)" }, body: update.body)
        }
        let inPipeline = try await send(update.vehicle)
        let throughRouter = try await send(VehicleUpdateRouteTests.escaped(update.vehicle))
        #expect(inPipeline.status == update.status, "\(inPipeline)")
        #expect(throughRouter.status == update.status, "\(throughRouter)")
        if update.status == 200 {
            #expect(
                VehicleUpdateRouteTests.withoutServerTime(inPipeline)
                    == VehicleUpdateRouteTests.withoutServerTime(throughRouter))
        } else {
            #expect(inPipeline.body == throughRouter.body)
        }
    }
}
