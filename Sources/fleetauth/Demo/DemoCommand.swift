import ArgumentParser
import FleetDemo

/// `fleetauth demo`: the whole token life on one machine (``DemoSettings/play()`` plays it).
/// Starts the token server and the local Fleet Engine, enrolls a fleet, then runs driver apps
/// reporting locations, consumer apps following their trips and an intruder, all with
/// short-lived tokens, and reports.
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
    var drivers = DemoSettings().drivers

    @Option(help: "How long the drivers drive, in seconds.")
    var duration = DemoSettings().duration

    @Option(help: "The lifetime of the tokens the token server issues, in seconds (1-3600).")
    var tokenLifetime = DemoSettings().tokenLifetime

    @Option(help: "Seconds between two location reports of a driver.")
    var reportInterval = DemoSettings().reportInterval

    @Option(help: "Seconds between two readings of a consumer's trip.")
    var followInterval = DemoSettings().followInterval

    @Option(help: "How many times to stop and restart the token server, spread evenly over the drive.")
    var tokenServerRestarts = DemoSettings().tokenServerRestarts

    @Option(help: "Seconds the token server stays down at each restart.")
    var tokenServerDowntime = DemoSettings().tokenServerDowntime

    @Flag(
        help:
            "Sign the apps' tokens keylessly through IAM (a Google stand-in started here) and rotate the keys mid-drive."
    )
    var keyless = false

    @Flag(
        help:
            "Play a delivery fleet instead: vans with parcels on stops, driver apps reporting, consumers following shipments."
    )
    var delivery = false

    @Option(
        help:
            "The apps' HTTP client: one AsyncHTTPClient for all, or a URLSession of each app's own (\(DemoHTTPClient.allCases.map(\.rawValue).joined(separator: ", ")))."
    )
    var httpClient = DemoSettings().httpClient

    @Option(help: "Seconds to keep the servers up after the report, to look around in the console at /console/.")
    var linger = DemoSettings().linger

    /// The settings these options give.
    var settings: DemoSettings {
        var settings = DemoSettings()
        settings.drivers = drivers
        settings.duration = duration
        settings.tokenLifetime = tokenLifetime
        settings.reportInterval = reportInterval
        settings.followInterval = followInterval
        settings.tokenServerRestarts = tokenServerRestarts
        settings.tokenServerDowntime = tokenServerDowntime
        settings.keyless = keyless
        settings.httpClient = httpClient
        settings.linger = linger
        return settings
    }

    func validate() throws {
        if let problem = settings.problem { throw ValidationError(problem) }
    }

    func run() async throws {
        if delivery {
            let report = try await settings.playDeliveries { $0.print() }
            if !report.succeeded { throw ExitCode(1) }
        } else {
            let report = try await settings.play { $0.print() }
            if !report.succeeded { throw ExitCode(1) }
        }
    }
}

extension DemoHTTPClient: ExpressibleByArgument {}
