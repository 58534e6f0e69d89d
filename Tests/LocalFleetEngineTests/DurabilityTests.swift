import Foundation
import Synchronization
import TestSupport
import Testing

/// Every update the engine acknowledged is still there after `kill -9` and a restart.
@Suite("Durability across kill -9")
struct DurabilityTests {
    @Test func acknowledgedUpdatesSurviveAHardKill() async throws {
        let folder = try TestEngine.makeFolder()
        let (engine, client, _) = try await ChildEngine.start(folder: folder)
        let vehicles = (0..<20).map { "durable-\($0)" }
        for vehicle in vehicles {
            let created = try await client.send(.POST, "\(Fixtures.provider)/vehicles?vehicleId=\(vehicle)", token: Tokens.server,
                                                       body: Fixtures.vehicleBody())
            try #require(created.status == 200, "\(created)")
        }
        // Each vehicle's driver sends updates one after another, each further north, until the
        // engine dies; the last acknowledged and the last sent latitude are remembered.
        let progress = DriveProgress()
        let drivers = Task {
            await withTaskGroup(of: Void.self) { group in
                for vehicle in vehicles {
                    group.addTask {
                        let token = Tokens.driver(vehicle)
                        for step in 1... {
                            let latitude = Double(step) / 10_000
                            progress.state.withLock { $0[vehicle, default: (0, 0)].sent = latitude }
                            guard let response = try? await client.send(.PUT, "\(Fixtures.provider)/vehicles/\(vehicle)?updateMask=lastLocation",
                                                                         token: token, body: Fixtures.locationUpdate(latitude: latitude, longitude: 1)),
                                  response.status == 200
                            else { return }
                            progress.state.withLock { $0[vehicle]!.acknowledged = latitude }
                        }
                    }
                }
            }
        }
        try await eventually { progress.state.withLock { state in vehicles.allSatisfy { (state[$0]?.acknowledged ?? 0) >= 0.002 } } }
        engine.kill()
        _ = try await engine.exit(within: .seconds(10))
        await drivers.value
        let final = progress.state.withLock { $0 }

        let (restarted, restartedClient, _) = try await ChildEngine.start(folder: folder)
        var acknowledgedTotal = 0
        for vehicle in vehicles {
            let response = try await restartedClient.send(.GET, "\(Fixtures.provider)/vehicles/\(vehicle)", token: Tokens.server)
            let stored = try #require(response.value("lastLocation.location.latitude") as? Double, "\(response)")
            let expected = try #require(final[vehicle])
            #expect(stored == expected.acknowledged || stored == expected.sent,
                    "\(vehicle): stored \(stored), acknowledged \(expected.acknowledged), last sent \(expected.sent)")
            acknowledgedTotal += Int((expected.acknowledged * 10_000).rounded())
        }
        #expect(acknowledgedTotal >= vehicles.count * 20)
        restarted.kill()
        _ = try await restarted.exit(within: .seconds(10))
    }
}

/// Per vehicle, the last latitude the engine acknowledged and the last one sent.
final class DriveProgress: Sendable {
    let state = Mutex([String: (acknowledged: Double, sent: Double)]())
}
