import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import LocalFleetEngine
import LocalStack
import Logging
import TokenServer

/// A whole fleet's servers in this process, as `serve` runs them but on loopback ports picked
/// at the first start: the token server and the local Fleet Engine on one data directory, the
/// engine trusting the token server's keys, and with `keyless` a Google stand-in the app roles
/// sign through; the engine's console is open on loopback. Either server can be stopped and
/// started again on its port, to play an outage.
/// `fleetauth demo` and the end-to-end tests run their fleets on it.
package actor LocalFleet {
    /// The folder both servers keep their data in.
    package let dataDirectory: String
    /// The token server's options; its clock (`now`) is the engine's too.
    package let options: TokenServerOptions
    /// Shared by every start of the token server, so that its counts add up.
    package let metrics: PrometheusMetrics
    /// The Google stand-in the app roles sign through, with `keyless`.
    package let keyless: LocalKeyless?
    /// The local Fleet Engine's database, open while the fleet runs.
    package let engineDatabase: ServerDatabase
    private let logger: Logger
    private let engineLock: DataDirectoryLock
    /// The token server of the latest start.
    package private(set) var tokenServer: TokenServer
    private var tokenServerRun: RunningService?
    private var fleetEngineRun: RunningService?
    /// The token server's port; it keeps it across restarts.
    package private(set) var tokenServerPort = 0
    /// The local Fleet Engine's port; it keeps it across restarts.
    package private(set) var fleetEnginePort = 0

    private init(
        dataDirectory: String, options: TokenServerOptions, metrics: PrometheusMetrics, keyless: LocalKeyless?,
        logger: Logger,
        engineDatabase: ServerDatabase, engineLock: DataDirectoryLock, tokenServer: TokenServer
    ) {
        self.dataDirectory = dataDirectory
        self.options = options
        self.metrics = metrics
        self.keyless = keyless
        self.logger = logger
        self.engineDatabase = engineDatabase
        self.engineLock = engineLock
        self.tokenServer = tokenServer
    }

    /// Opens both servers in `dataDirectory` (the token server makes its keys there unless
    /// they are in place) and starts them; with `keyless`, a Google stand-in first, through
    /// which the app roles sign.
    package static func start(
        dataDirectory: String, project: String, options: TokenServerOptions, keyless: Bool, logger: Logger
    ) async throws -> LocalFleet {
        let local = keyless ? try await LocalKeyless.start(project: project, logger: logger) : nil
        var options = options
        if let local { options.keyless = local.signing(project: project) }
        let configuration = TokenServerConfiguration(dataDirectory: dataDirectory, projectID: project, options: options)
        let metrics = PrometheusMetrics()
        let tokenServer: TokenServer, database: ServerDatabase, engineLock: DataDirectoryLock
        do {
            (tokenServer, database, engineLock) = try await LocalServers.open(
                configuration, metrics: metrics, logger: logger)
        } catch {
            await local?.stop()
            throw error
        }
        let fleet = LocalFleet(
            dataDirectory: dataDirectory, options: options, metrics: metrics, keyless: local, logger: logger,
            engineDatabase: database, engineLock: engineLock, tokenServer: tokenServer)
        do {
            try await fleet.startFleetEngine()
            try await fleet.startTokenServer()
        } catch {
            await fleet.stop()
            throw error
        }
        return fleet
    }

    /// Stops the token server gracefully and closes its database: apps see connections refused.
    package func stopTokenServer() async {
        await tokenServerRun?.stop()
        tokenServerRun = nil
        await tokenServer.shutdown()
    }

    /// Opens the token server again from its data directory and serves it on its port.
    package func restartTokenServer() async throws {
        let configuration = TokenServerConfiguration(
            dataDirectory: dataDirectory, projectID: tokenServer.keyRing.projectID, options: options)
        tokenServer = try await TokenServer.open(configuration, metrics: metrics, logger: logger)
        try await startTokenServer()
    }

    /// Stops the local Fleet Engine gracefully (every accepted write saved); its database
    /// stays open.
    package func stopFleetEngine() async {
        await fleetEngineRun?.stop()
        fleetEngineRun = nil
    }

    /// Serves the local Fleet Engine again on its port, from what its database holds.
    package func restartFleetEngine() async throws {
        try await startFleetEngine()
    }

    /// Stops both servers and closes their databases.
    package func stop() async {
        if tokenServerRun != nil { await stopTokenServer() }
        await stopFleetEngine()
        await engineDatabase.shutdown()
        engineLock.release()
        await keyless?.stop()
    }

    private func startTokenServer() async throws {
        let (tokenServer, port) = (tokenServer, tokenServerPort)
        let run = try await RunningService.start(logger: logger) { onStarted in
            tokenServer.application(host: "127.0.0.1", port: port, onRunning: onStarted)
        }
        tokenServerPort = run.port
        tokenServerRun = run
    }

    private func startFleetEngine() async throws {
        let (tokenServer, database, logger, port) = (tokenServer, engineDatabase, logger, fleetEnginePort)
        let certs = keyless?.baseURL ?? LocalFleetEngineConfiguration.defaultGoogleCertsURL
        let run = try await RunningService.start(logger: logger) { onStarted in
            LocalFleetEngine(
                trusting: tokenServer, googleCertsURL: certs, database: database, host: "127.0.0.1", port: port,
                console: .loopback,
                logger: logger, onStarted: onStarted)
        }
        fleetEnginePort = run.port
        fleetEngineRun = run
    }
}
