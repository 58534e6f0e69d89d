import FleetEngineProtos
import Foundation
import GRPCCore
import TestSupport
import Testing

/// `/healthz` and `/metrics` on the REST port: requests counted by API method, door and status,
/// refusals by reason, UpdateVehicle's time until acknowledged.
@Suite("Engine operations")
struct OperationsTests {
    @Test func healthzAnswersOK() async throws {
        let health = try await TestEngine.shared.send(.GET, "/healthz", authorization: nil)
        #expect(health.status == 200 && health.json["status"] as? String == "ok", "\(health)")
    }

    @Test func metricsCountBothDoorsAndTheRefusals() async throws {
        let engine = try await TestEngine.shared
        let p = Fixtures.provider
        #expect(try await engine.send(.GET, "\(p)/vehicles/v1", token: Tokens.server).status == 200)
        #expect(try await engine.send(.GET, "\(p)/vehicles/v1", authorization: nil).status == 401)
        #expect(
            try await engine.send(
                .PUT, "\(p)/vehicles/v1?updateMask=lastLocation", token: Tokens.driver("v1"),
                body: Fixtures.locationUpdate(latitude: 52.5201, longitude: 13.405)
            ).status == 200)
        try await GRPCTestClient.with(engine) { grpc in
            _ = try await grpc.vehicles.getVehicle(
                .with { $0.name = "providers/\(TestKeys.project)/vehicles/v1" },
                metadata: GRPCTestClient.bearer(Tokens.server))
            _ = await GRPCOutcome.of {
                try await grpc.vehicles.getVehicle(
                    .with { $0.name = "providers/\(TestKeys.project)/vehicles/v2" },
                    metadata: GRPCTestClient.bearer(Tokens.driver("v1")))
            }
        }
        let metrics = try await engine.send(.GET, "/metrics", authorization: nil)
        #expect(metrics.status == 200)
        let lines = metrics.body.split(separator: "\n").filter { !$0.hasPrefix("#") }
        func counted(_ name: String, _ labels: [String]) -> Bool {
            lines.contains { line in line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) } }
        }
        #expect(
            counted("fleet_engine_requests_total", [#"method="GetVehicle""#, #"door="rest""#, #"status="OK""#]),
            "\(metrics.body)")
        #expect(
            counted(
                "fleet_engine_requests_total", [#"method="GetVehicle""#, #"door="rest""#, #"status="UNAUTHENTICATED""#])
        )
        #expect(counted("fleet_engine_requests_total", [#"method="GetVehicle""#, #"door="grpc""#, #"status="OK""#]))
        #expect(
            counted(
                "fleet_engine_requests_total",
                [#"method="GetVehicle""#, #"door="grpc""#, #"status="PERMISSION_DENIED""#]))
        #expect(counted("fleet_engine_refusals_total", [#"reason="missing""#]))
        #expect(counted("fleet_engine_refusals_total", [#"reason="permission_denied""#]))
        #expect(counted("fleet_engine_update_duration_seconds_count", [#"door="rest""#]))
    }
}
