import FleetAuthServerHTTP
import Foundation
import Logging
import TokenServer

/// What a play of the demo does: how many drivers (each with a vehicle, a trip and that trip's
/// consumer) drive for how long, with tokens of what lifetime, how often apps report and read,
/// how the token server is stopped on the way, and how the apps sign and connect.
package struct DemoSettings: Sendable {
    /// How many drivers.
    package var drivers = 20
    /// How long the drivers drive, in seconds.
    package var duration = 40
    /// The lifetime of the tokens the token server issues, in seconds.
    package var tokenLifetime = 30
    /// Seconds between two location reports of a driver.
    package var reportInterval = 1.0
    /// Seconds between two readings of a consumer's trip.
    package var followInterval = 2.0
    /// How many times the token server is stopped and started again, spread over the drive.
    package var tokenServerRestarts = 0
    /// Seconds the token server stays down at each restart.
    package var tokenServerDowntime = 5
    /// Whether the apps' tokens are signed through IAM (a Google stand-in), with the keys
    /// rotated halfway.
    package var keyless = false
    /// The apps' HTTP client.
    package var httpClient = DemoHTTPClient.asyncHTTPClient
    /// Seconds the servers stay up after the report, to look around in the console.
    package var linger = 0

    /// Settings with the defaults above.
    package init() {}

    /// Why these settings cannot be played, or `nil`.
    package var problem: String? {
        if drivers < 2 { return "--drivers must be at least 2 (the intruder uses driver 1's session)" }
        if duration < 5 { return "--duration must be at least 5 seconds" }
        if !(1...3600).contains(tokenLifetime) { return "--token-lifetime must be 1 to 3600 seconds" }
        if reportInterval <= 0 || followInterval <= 0 { return "intervals must be positive" }
        if tokenServerRestarts < 0 || tokenServerDowntime < 0 { return "restarts and downtime cannot be negative" }
        if linger < 0 { return "--linger cannot be negative" }
        return nil
    }

    /// Starts the servers in a temporary data directory, plays the on-demand demo, hands the
    /// report to `present`, keeps the servers up for ``linger`` seconds, stops them, removes the
    /// directory and returns the report.
    package func play(presenting present: (DemoReport) -> Void = { _ in }) async throws -> DemoReport {
        try await withServers(presenting: present) { try await DemoRun(settings: self, servers: $0).play() }
    }

    /// The same with delivery vehicles, their stops and tasks, and shipments followed
    /// (`fleetauth demo --delivery`).
    package func playDeliveries(presenting present: (DeliveryDemoReport) -> Void = { _ in }) async throws
        -> DeliveryDemoReport
    {
        try await withServers(presenting: present) { try await DeliveryDemoRun(settings: self, servers: $0).play() }
    }

    /// Runs `body` with both servers started in a temporary data directory, says where their
    /// console is, presents the report, lingers, then stops them and removes the directory.
    private func withServers<Report>(presenting present: (Report) -> Void, _ body: (LocalFleet) async throws -> Report)
        async throws -> Report
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-demo-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let options = TokenServerOptions(
            tokenLifetime: .seconds(tokenLifetime), bcryptCost: DemoRun.bcryptCost, allowedOrigins: .loopback,
            servesExamples: true)
        var logger = Logger(label: "fleetauth.demo", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .error
        let servers = try await LocalFleet.start(
            dataDirectory: folder, project: DemoRun.project, options: options, keyless: keyless, logger: logger)
        let console = "http://127.0.0.1:\(await servers.fleetEnginePort)/console/"
        DemoRun.announce(
            "Fleet console: \(console)   (the fleet live, and why each request was refused\(linger > 0 ? "" : "; --linger SECONDS keeps it up after the report"))"
        )
        do {
            let report = try await body(servers)
            present(report)
            if linger > 0 {
                DemoRun.announce("The servers stay up for \(linger) s: \(console)")
                try await Task.sleep(for: .seconds(linger))
            }
            await servers.stop()
            return report
        } catch {
            await servers.stop()
            throw error
        }
    }
}

/// The demo could not be played as set up (an app could not log in, a key is missing).
package struct DemoFailure: Error, CustomStringConvertible {
    /// What went wrong, in words.
    package let description: String

    /// A failure saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}
