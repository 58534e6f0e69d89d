import FleetEngineEmulator
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `FleetEngineEmulator`, the Swift helper a backend's or app's tests start the engine with:
/// the same flow as the Python test, in Swift Testing.
@Suite("FleetEngineEmulator")
struct FleetEngineEmulatorTests {
    /// A REST call to `engine` with `token`; the status and the `Retry-After` header.
    private static func call(
        _ engine: FleetEngineEmulator, _ method: String, _ path: String, token: String, body: String? = nil
    ) async throws -> (status: Int, retryAfter: String?) {
        var request = URLRequest(
            url: URL(string: "\(engine.baseURL.absoluteString)/v1/providers/\(engine.projectID)/\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
        }
        let (_, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
    }

    @Test(
        "a test resets the engine, fails two updates with UNAVAILABLE, asserts on the calls, and moves the clock past its tokens"
    )
    func harnessFromSwift() async throws {
        let engine = try await FleetEngineEmulator.start(
            projectID: TestKeys.project, trusting: TestKeys.trustedAccounts)
        do {
            try await engine.reset()
            let vehicle =
                #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#
            #expect(
                try await Self.call(engine, "POST", "vehicles?vehicleId=e-1", token: Tokens.server, body: vehicle)
                    .status == 200)

            try await engine.inject(.init(method: "UpdateVehicle", status: "UNAVAILABLE", count: 2))
            let move = #"{"lastLocation":{"location":{"latitude":52.5,"longitude":13.4}}}"#
            var answers: [(status: Int, retryAfter: String?)] = []
            for _ in 0..<3 {
                answers.append(
                    try await Self.call(
                        engine, "PUT", "vehicles/e-1?updateMask=lastLocation", token: Tokens.driver("e-1"), body: move))
            }
            #expect(answers.map(\.status) == [503, 503, 200])
            #expect(answers[0].retryAfter == "1", "an injected UNAVAILABLE says when to try again")

            let calls = try await engine.calls(method: "UpdateVehicle", resource: "e-1")
            #expect(calls.map(\.status) == ["UNAVAILABLE", "UNAVAILABLE", "OK"])
            #expect(
                calls.allSatisfy { $0.role == "driver" && $0.claims?["vehicleid"] == "e-1" },
                "faulted calls too are recorded with their token's role and claims")
            #expect(calls.map(\.injectedFault) == [1, 1, nil])
            // Each with its body, the faulted ones (answered by the router) and the one answered on the fast path.
            for call in calls {
                let sent = try #require(call.body, "call \(call.sequence) is recorded with its body")
                let location =
                    try JSONSerialization.jsonObject(with: sent.json) as? [String: [String: [String: Double]]]
                #expect(location?["lastLocation"]?["location"] == ["latitude": 52.5, "longitude": 13.4])
            }

            let before = try await engine.clock.now()
            try await engine.clock.advance(by: 3700)
            #expect(try await engine.clock.now().timeIntervalSince(before) >= 3700)
            #expect(
                try await Self.call(engine, "GET", "vehicles/e-1", token: Tokens.server).status == 401,
                "an hour's token has expired")
            try await engine.clock.reset()
            #expect(try await Self.call(engine, "GET", "vehicles/e-1", token: Tokens.server).status == 200)

            try await engine.reset([.vehicles])
            #expect(try await Self.call(engine, "GET", "vehicles/e-1", token: Tokens.server).status == 404)
            await #expect(throws: EmulatorError.self) { try await engine.inject(.init(method: "UpdateVehicle")) }
        } catch {
            await engine.stop()
            throw error
        }
        await engine.stop()
    }
}
