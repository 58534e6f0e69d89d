import Foundation
import TestSupport
import Testing

/// Inputs that once broke the engine, found by schemathesis: each gets a clear answer, and the
/// engine goes on.
@Suite("Delivery bad input")
struct DeliveryBadInputTests {
    @Test func anEnumNumberBeyond32BitsIsRefusedWhereverItIs() async throws {
        let engine = try await TestEngine.shared
        let p = Fixtures.provider
        for (path, body) in [
            (
                "\(p)/deliveryVehicles?deliveryVehicleId=wide-enum",
                #"{"lastLocation":{"location":{},"rawLocationSensor":2147483648}}"#
            ),
            (
                "\(p)/deliveryVehicles?deliveryVehicleId=wide-enum",
                #"{"lastLocation":{"location":{},"supplementalLocationSensor":-2147483649}}"#
            ),
            ("\(p)/tasks:batchCreate", #"{"header":{"platform":2147483648},"requests":[]}"#),
        ] {
            let response = try await engine.send(.POST, path, token: Tokens.deliveryServer, body: body)
            #expect(response.status == 400, "\(body): \(response)")
            #expect(response.errorMessage.contains("not a 32-bit enum number"), "\(response)")
        }
        let after = try await engine.send(.GET, "\(p)/deliveryVehicles/wide-enum", token: Tokens.deliveryServer)
        #expect(after.status == 404, "the engine is up, and made nothing: \(after)")
    }

    @Test func aTaskThatEndsAfterTheYear9999LeavesItsEstimateOutInsteadOfFailing() async throws {
        let engine = try await TestEngine.shared
        let p = Fixtures.provider
        let server = Tokens.deliveryServer
        _ = try await engine.send(
            .POST, "\(p)/deliveryVehicles?deliveryVehicleId=slow-van", token: server,
            body: #"{"lastLocation":{"location":{"latitude":1,"longitude":1}}}"#)
        _ = try await engine.send(
            .POST, "\(p)/tasks?taskId=slow-task", token: server,
            body: """
                {"type":"DELIVERY","state":"OPEN","taskDuration":"315576000000s","trackingId":"slow-ship","plannedLocation":{"point":{"latitude":1,"longitude":1}}}
                """)
        let stops = try await engine.send(
            .PATCH, "\(p)/deliveryVehicles/slow-van?updateMask=remainingVehicleJourneySegments", token: server,
            body:
                #"{"remainingVehicleJourneySegments":[{"stop":{"plannedLocation":{"point":{"latitude":1,"longitude":1}},"state":"NEW","tasks":[{"taskId":"slow-task"}]}}]}"#
        )
        try #require(stops.status == 200, "\(stops)")
        let info = try await engine.send(.GET, "\(p)/taskTrackingInfo/slow-ship", token: server)
        #expect(info.status == 200, "\(info)")
        #expect(
            info.value("estimatedArrivalTime") != nil && info.value("estimatedTaskCompletionTime") == nil, "\(info)")
    }
}
