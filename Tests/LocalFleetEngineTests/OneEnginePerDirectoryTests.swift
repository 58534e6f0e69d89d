import CommandSupport
import Foundation
import TestSupport
import Testing

/// One `fleetauth fleet-engine` per data directory: a second refuses to start, saying which
/// process has it, and a killed one does not block its restart.
@Suite("One engine per data directory")
struct OneEnginePerDirectoryTests {
    @Test func aSecondEngineRefusesAndAKilledOneDoesNotBlockTheRestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-engine-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (first, _, _) = try await ChildEngine.start(folder: folder)
        defer { first.kill() }

        let arguments =
            ["fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--port", "0", "--grpc-port", "0"]
            + (try ChildEngine.trustArguments(in: folder))
        let second = try await ChildProcess.runFleetauth(arguments, timeout: .seconds(30))
        #expect(second.status != 0)
        #expect(second.output.contains("is in use by another local Fleet Engine (process "), "\(second.output)")

        first.kill()
        _ = try await first.exit()
        let (restarted, client, _) = try await ChildEngine.start(folder: folder)
        defer { restarted.kill() }
        let answer = try await client.send(.GET, "\(Fixtures.provider)/vehicles/none", token: Tokens.server)
        #expect(answer.status == 404, "the restarted engine serves: \(answer)")
    }
}
