import BrowserDriver
import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetEngineClient
import FleetEngineProtos
import FleetTokenProvider
import FleetTokens
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import LocalFleetEngine
import TestSupport

/// A local Fleet Engine with its console (REST and gRPC doors, SQLite in a folder of its own,
/// trusting the test keys, every log line recorded), as `fleetauth fleet-engine` runs it.
final class ConsoleEngine: Sendable {
    /// `http://127.0.0.1:PORT`.
    let address: String
    let grpcPort: Int
    /// Everything the engine logged.
    let logs: LogRecorder
    private let running: RunningService
    private let database: ServerDatabase

    private init(address: String, grpcPort: Int, logs: LogRecorder, running: RunningService, database: ServerDatabase) {
        self.address = address
        self.grpcPort = grpcPort
        self.logs = logs
        self.running = running
        self.database = database
    }

    /// Starts an engine listening on `host` whose console `access` allows.
    static func start(access: ConsoleAccess = .loopback, host: String = "127.0.0.1") async throws -> ConsoleEngine {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let logs = LogRecorder()
        let database = try await ServerDatabase.open(
            .sqlite(path: folder + "/fleet-engine.sqlite"), logger: logs.logger)
        let store = SQLEngineStore(database: database)
        try await store.prepare()
        let (grpcPorts, grpcPortSink) = AsyncStream.makeStream(of: Int.self)
        let running: RunningService
        do {
            running = try await RunningService.start(logger: logs.logger) { onStarted in
                LocalFleetEngine(
                    configuration: .init(
                        projectID: TestKeys.project, trustedAccounts: TestKeys.trustedAccounts, host: host, port: 0,
                        grpcPort: 0,
                        console: access, onStarted: onStarted, onGRPCStarted: { grpcPortSink.yield($0) }),
                    store: store, logger: logs.logger)
            }
        } catch {
            await database.shutdown()
            throw error
        }
        guard let grpcPort = await grpcPorts.first(where: { _ in true }) else {
            throw TestFailure("the gRPC door did not start")
        }
        return ConsoleEngine(
            address: "http://127.0.0.1:\(running.port)", grpcPort: grpcPort, logs: logs, running: running,
            database: database)
    }

    /// Stops the engine and closes its database.
    func stop() async {
        await running.stop()
        await database.shutdown()
    }

    /// A client with server tokens, as the fleet operator's backend has.
    var operatorClient: FleetEngineClient {
        get throws {
            let minter = try TokenMinter(key: TestKeys.server, defaultLifetime: .seconds(3600))
            return FleetEngineClient(
                baseURL: URL(string: address)!, providerID: TestKeys.project, tokens: ServerTokens(minter: minter))
        }
    }

    /// A client with delivery server tokens, as a delivery fleet's backend has.
    var deliveryClient: FleetEngineClient {
        get throws {
            let minter = try TokenMinter(key: TestKeys.deliveryAdmin, defaultLifetime: .seconds(3600))
            return FleetEngineClient(
                baseURL: URL(string: address)!, providerID: TestKeys.project,
                tokens: ServerTokens(minter: minter, kind: .deliveryServer))
        }
    }

    /// A driver token for `vehicle`.
    func driverToken(_ vehicle: String) throws -> String {
        try TokenMinter(key: TestKeys.driver, defaultLifetime: .seconds(3600)).mint(.driver(vehicleID: vehicle)).token
    }

    /// Moves `vehicle` to `latitude`, `longitude` through the gRPC door with its driver's token, as the
    /// Driver SDK does; returns once the engine acknowledged it.
    func moveThroughGRPC(_ vehicle: String, latitude: Double, longitude: Double) async throws {
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: "127.0.0.1", port: grpcPort), transportSecurity: .plaintext)
        let token = try driverToken(vehicle)
        try await withGRPCClient(transport: transport) { client in
            let vehicles = Maps_Fleetengine_V1_VehicleService.Client(wrapping: client)
            _ = try await vehicles.updateVehicle(
                .with {
                    $0.name = "providers/\(TestKeys.project)/vehicles/\(vehicle)"
                    $0.vehicle.lastLocation.location.latitude = latitude
                    $0.vehicle.lastLocation.location.longitude = longitude
                    $0.updateMask.paths = ["last_location"]
                },
                metadata: ["authorization": "Bearer \(token)"])
        }
    }
}

/// A console test's world: an engine and headless Chromium.
struct ConsoleScene: Sendable {
    let browser: WebDriverSession
    let engine: ConsoleEngine

    /// The console's page of this engine, with `query` (e.g. `?status=refused`) and `view` (`#map`).
    func consoleURL(_ query: String = "", view: String = "") -> String {
        "\(engine.address)/console/\(query)\(view)"
    }

    /// Opens the console at `view` and waits until it has loaded its data.
    func open(_ query: String = "", view: String = "") async throws {
        try await browser.navigate(to: consoleURL(query, view: view))
        try await waitUntilReady()
    }

    /// Waits until the page has loaded its data once since it was opened.
    func waitUntilReady() async throws {
        try await browser.waitUntilConsoleReady()
    }

    /// Runs `body` in a new scene whose engine's console `access` allows, and takes it down
    /// however `body` ends.
    static func run(
        access: ConsoleAccess = .loopback, host: String = "127.0.0.1", _ body: (ConsoleScene) async throws -> Void
    ) async throws {
        let engine = try await ConsoleEngine.start(access: access, host: host)
        var chromium: HeadlessChromium?
        do {
            chromium = try await HeadlessChromium.start()
            try await chromium!.session.setScriptTimeout(.seconds(60))
            try await body(ConsoleScene(browser: chromium!.session, engine: engine))
        } catch {
            await chromium?.stop()
            await engine.stop()
            throw error
        }
        await chromium?.stop()
        await engine.stop()
    }
}
