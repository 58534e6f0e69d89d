import ArgumentParser
import FleetEngineClient
import FleetTokens
import Foundation
import TokenServer

/// `fleetauth demo`: the whole token life on one machine. Starts the token server and the
/// local Fleet Engine, enrolls a fleet, then runs driver apps reporting locations, consumer
/// apps following their trips and an intruder, all with short-lived tokens, and reports.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a simulated fleet against the token server and the local Fleet Engine, and report.",
        discussion: """
        Both servers run in this process on free loopback ports, with a temporary data directory that is removed \
        afterwards. Each driver app logs in, fetches its driver token from the token server, reuses and refreshes it, \
        and reports its vehicle's location through FleetEngineClient's VehicleReporter; each consumer app follows its \
        trip through a TripFollower; an intruder tries forged, expired and other people's tokens. The demo fails \
        (exit 1) if an update is lost, an app is refused for an auth reason, or the intruder gets through.
        """
    )

    @Option(help: "How many drivers (each with a vehicle, a trip and that trip's consumer).")
    var drivers = 20

    @Option(help: "How long the drivers drive, in seconds.")
    var duration = 40

    @Option(help: "The lifetime of the tokens the token server issues, in seconds (1-3600).")
    var tokenLifetime = 30

    @Option(help: "Seconds between two location reports of a driver.")
    var reportInterval = 1.0

    @Option(help: "Seconds between two readings of a consumer's trip.")
    var followInterval = 2.0

    @Option(help: "How many times to stop and restart the token server, spread evenly over the drive.")
    var tokenServerRestarts = 0

    @Option(help: "Seconds the token server stays down at each restart.")
    var tokenServerDowntime = 5

    @Flag(help: "Sign the apps' tokens keylessly through IAM (a Google stand-in started here) and rotate the keys mid-drive.")
    var keyless = false

    @Option(help: "The apps' HTTP client: one AsyncHTTPClient for all, or a URLSession of each app's own (\(DemoHTTPClient.allCases.map(\.rawValue).joined(separator: ", "))).")
    var httpClient = DemoHTTPClient.asyncHTTPClient

    func validate() throws {
        guard drivers >= 2 else { throw ValidationError("--drivers must be at least 2 (the intruder uses driver 1's session)") }
        guard duration >= 5 else { throw ValidationError("--duration must be at least 5 seconds") }
        guard (1...3600).contains(tokenLifetime) else { throw ValidationError("--token-lifetime must be 1 to 3600 seconds") }
        guard reportInterval > 0, followInterval > 0 else { throw ValidationError("intervals must be positive") }
        guard tokenServerRestarts >= 0, tokenServerDowntime >= 0 else { throw ValidationError("restarts and downtime cannot be negative") }
    }

    func run() async throws {
        let report = try await play()
        report.print()
        if !report.succeeded { throw ExitCode(1) }
    }

    /// Starts the servers in a temporary data directory, plays the demo, stops the servers,
    /// removes the directory and returns the report.
    func play() async throws -> DemoReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetauth-demo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let options = TokenServerOptions(tokenLifetime: .seconds(tokenLifetime), bcryptCost: DemoRun.bcryptCost)
        let servers = try await DemoServers.start(dataDirectory: folder, project: DemoRun.project, options: options, keyless: keyless)
        do {
            let report = try await DemoRun(command: self, servers: servers).play()
            await servers.stop()
            return report
        } catch {
            await servers.stop()
            throw error
        }
    }
}
