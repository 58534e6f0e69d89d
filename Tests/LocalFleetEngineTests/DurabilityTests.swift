import FleetAuthLocking
import FleetEngineProtos
import Foundation
import TestSupport
import Testing

/// Every update the engine acknowledged, through either door, is still there after `kill -9`
/// and a restart.
@Suite("Durability across kill -9")
struct DurabilityTests {
    /// The door the drivers' updates go through.
    enum Door: String, CaseIterable {
        case rest, grpc
    }

    @Test(arguments: Door.allCases)
    func acknowledgedUpdatesSurviveAHardKill(through door: Door) async throws {
        let folder = try TestEngine.makeFolder()
        let (engine, client, grpcPort) = try await ChildEngine.start(folder: folder)
        let vehicles = (0..<20).map { "durable-\($0)" }
        for vehicle in vehicles {
            let created = try await client.send(
                .POST, "\(Fixtures.provider)/vehicles?vehicleId=\(vehicle)", token: Tokens.server,
                body: Fixtures.vehicleBody())
            try #require(created.status == 200, "\(created)")
        }
        // Each vehicle's driver sends updates one after another, each further north, until the
        // engine dies; the last acknowledged and the last sent latitude are remembered.
        let progress = DriveProgress()
        let drivers = Task {
            try await GRPCTestClient.with(TestClient(port: client.port, grpcPort: grpcPort)) { grpc in
                await withTaskGroup(of: Void.self) { group in
                    for vehicle in vehicles {
                        group.addTask {
                            let token = Tokens.driver(vehicle)
                            for step in 1... {
                                let latitude = Double(step) / 10_000
                                progress.state.withLock { $0[vehicle, default: (0, 0)].sent = latitude }
                                guard await Self.move(vehicle, to: latitude, token: token, through: door, client, grpc)
                                else { return }
                                progress.state.withLock { $0[vehicle]!.acknowledged = latitude }
                            }
                        }
                    }
                }
            }
        }
        // Bounded generously: on a saturated machine the child engine gets little of it.
        try await waitUntil(timeout: .seconds(120)) {
            progress.state.withLock { state in vehicles.allSatisfy { (state[$0]?.acknowledged ?? 0) >= 0.002 } }
        }
        engine.kill()
        _ = try await engine.exit(within: .seconds(10))
        try await drivers.value
        let final = progress.state.withLock { $0 }

        let (restarted, restartedClient, _) = try await ChildEngine.start(folder: folder)
        var acknowledgedTotal = 0
        for vehicle in vehicles {
            let response = try await restartedClient.send(
                .GET, "\(Fixtures.provider)/vehicles/\(vehicle)", token: Tokens.server)
            let stored = try #require(response.value("lastLocation.location.latitude") as? Double, "\(response)")
            let expected = try #require(final[vehicle])
            #expect(
                stored == expected.acknowledged || stored == expected.sent,
                "\(vehicle): stored \(stored), acknowledged \(expected.acknowledged), last sent \(expected.sent)")
            acknowledgedTotal += Int((expected.acknowledged * 10_000).rounded())
        }
        #expect(acknowledgedTotal >= vehicles.count * 20)
        restarted.kill()
        _ = try await restarted.exit(within: .seconds(10))
    }

    /// Sends `vehicle`'s driver's location update through `door`; whether it was acknowledged.
    static func move(
        _ vehicle: String, to latitude: Double, token: String, through door: Door, _ client: TestClient,
        _ grpc: GRPCTestClient
    ) async -> Bool {
        switch door {
        case .rest:
            let response = try? await client.send(
                .PUT, "\(Fixtures.provider)/vehicles/\(vehicle)?updateMask=lastLocation", token: token,
                body: Fixtures.locationUpdate(latitude: latitude, longitude: 1))
            return response?.status == 200
        case .grpc:
            let outcome = await GRPCOutcome.of {
                try await grpc.vehicles.updateVehicle(
                    .with {
                        $0.name = "providers/\(TestKeys.project)/vehicles/\(vehicle)"
                        $0.vehicle = .with {
                            $0.lastLocation = .with {
                                $0.location = .with {
                                    $0.latitude = latitude; $0.longitude = 1
                                }
                            }
                        }
                        $0.updateMask = .with { $0.paths = ["last_location"] }
                    },
                    metadata: GRPCTestClient.bearer(token))
            }
            return outcome.code == nil
        }
    }
}

/// Per vehicle, the last latitude the engine acknowledged and the last one sent.
final class DriveProgress: Sendable {
    let state = Locked([String: (acknowledged: Double, sent: Double)]())
}
