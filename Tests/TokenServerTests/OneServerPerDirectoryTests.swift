import CommandSupport
import Foundation
import TestSupport
import Testing

/// One `fleetauth token-server` (and one `fleetauth serve`) per SQLite data directory: a second
/// refuses to start and says which process has the directory; a killed one does not block its
/// restart. (PostgreSQL replicas, which may share one, are `ReplicaAndRestartTests`.)
@Suite("One token server per data directory")
struct OneServerPerDirectoryTests {
    @Test func aSecondTokenServerRefusesAndAKilledOneDoesNotBlockTheRestart() async throws {
        let folder = Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = [
            "token-server", "--data-dir", folder, "--port", "0", "--bcrypt-cost", "4", "--log-level", "warning",
        ]

        let first = try ChildProcess([try ChildProcess.fleetauth] + arguments, standardError: .discarded)
        defer { first.kill() }
        _ = try await first.output(containing: "listening on")
        try await Self.expectRefusal(of: arguments, saying: "is in use by another token server (process ")

        first.kill()
        _ = try await first.exit()
        let restarted = try ChildProcess([try ChildProcess.fleetauth] + arguments, standardError: .discarded)
        defer { restarted.kill() }
        let announced = try await restarted.output(containing: "listening on")
        let port = try #require(ChildProcess.loopbackPorts(in: announced).first)
        let health = try await RawHTTP.exchange(port: port, head: ["GET /healthz HTTP/1.1", "Host: localhost"])
        #expect(health.status == 200, "the restarted token server serves: \(health)")
    }

    @Test func aSecondServeOnTheSameDirectoryRefuses() async throws {
        let folder = Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = [
            "serve", "--data-dir", folder, "--project", "one-serve", "--token-server-port", "0", "--fleet-engine-port",
            "0", "--grpc-port", "0",
        ]

        let first = try ChildProcess([try ChildProcess.fleetauth] + arguments, standardError: .discarded)
        defer { first.kill() }
        _ = try await first.output(containing: "3. Send")
        try await Self.expectRefusal(of: arguments, saying: "is in use by another token server (process ")
    }

    /// Runs `fleetauth arguments` while the first server holds the directory, and expects it to
    /// fail saying `words`.
    private static func expectRefusal(of arguments: [String], saying words: String) async throws {
        let second = try await ChildProcess.runFleetauth(arguments, timeout: .seconds(30))
        #expect(second.status != 0)
        #expect(second.output.contains(words), "\(second.output)")
    }

    private static func makeFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("one-server-\(UUID().uuidString)").path
    }
}
