import FleetServerSupport
import Foundation
import LocalFleetEngine
import Logging
import ServiceLifecycle
import TokenServer

/// The demo's servers, as `serve` runs them but on free loopback ports and a temporary data
/// directory: the token server, which the demo stops and starts again to play an outage, the
/// local Fleet Engine trusting its keys, and with `--keyless` the Google stand-in.
actor DemoServers {
    let dataDirectory: String
    let options: TokenServerOptions
    /// Shared by every start of the token server, so that its counts add up.
    let metrics: PrometheusMetrics
    /// The Google stand-in the app roles sign through, with `--keyless`.
    let keyless: LocalKeyless?
    private let logger: Logger
    private let database: FleetDatabase
    private let engineLock: DataDirectoryLock
    private(set) var tokenServer: TokenServer
    private var tokenServerRun: RunningService?
    private var fleetEngineRun: RunningService?
    private(set) var tokenServerPort = 0
    private(set) var fleetEnginePort = 0

    private init(
        dataDirectory: String, options: TokenServerOptions, metrics: PrometheusMetrics, keyless: LocalKeyless?, logger: Logger,
        database: FleetDatabase, engineLock: DataDirectoryLock, tokenServer: TokenServer
    ) {
        self.engineLock = engineLock
        self.dataDirectory = dataDirectory
        self.metrics = metrics
        self.keyless = keyless
        self.options = options
        self.logger = logger
        self.database = database
        self.tokenServer = tokenServer
    }

    /// Opens both servers in `dataDirectory` and starts them; with `keyless`, a Google stand-in
    /// first, through which the app roles sign.
    static func start(dataDirectory: String, project: String, options: TokenServerOptions, keyless: Bool) async throws -> DemoServers {
        var logger = Logger(label: "fleetauth.demo", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .error
        let local = keyless ? try await LocalKeyless.start(logger: logger) : nil
        var options = options
        if let local { options.keyless = local.signing(project: project) }
        let configuration = TokenServerConfiguration(dataDirectory: dataDirectory, projectID: project, options: options)
        let metrics = PrometheusMetrics()
        let tokenServer: TokenServer, database: FleetDatabase, engineLock: DataDirectoryLock
        do {
            (tokenServer, database, engineLock) = try await LocalServers.open(configuration, metrics: metrics, logger: logger)
        } catch {
            await local?.stop()
            throw error
        }
        let servers = DemoServers(
            dataDirectory: dataDirectory, options: options, metrics: metrics, keyless: local, logger: logger, database: database,
            engineLock: engineLock, tokenServer: tokenServer)
        do {
            try await servers.startFleetEngine()
            try await servers.startTokenServer(reopening: false)
        } catch {
            await servers.stop()
            throw error
        }
        return servers
    }

    /// Stops the token server gracefully and closes its database: apps see connections refused.
    func stopTokenServer() async {
        await tokenServerRun?.stop()
        tokenServerRun = nil
        await tokenServer.shutdown()
    }

    /// Opens the token server again from its data directory and serves it on its old port.
    func restartTokenServer() async throws {
        try await startTokenServer(reopening: true)
    }

    /// Stops both servers and closes their databases.
    func stop() async {
        if tokenServerRun != nil { await stopTokenServer() }
        await fleetEngineRun?.stop()
        await database.shutdown()
        engineLock.release()
        await keyless?.stop()
    }

    private func startTokenServer(reopening: Bool) async throws {
        if reopening {
            let configuration = TokenServerConfiguration(dataDirectory: dataDirectory, projectID: tokenServer.keys.projectID, options: options)
            tokenServer = try await TokenServer.open(configuration, metrics: metrics, logger: logger)
        }
        let (tokenServer, port) = (tokenServer, tokenServerPort)
        let run = try await RunningService.start(logger: logger) { onStarted in
            tokenServer.application(host: "127.0.0.1", port: port, onRunning: onStarted)
        }
        tokenServerPort = run.port
        tokenServerRun = run
    }

    private func startFleetEngine() async throws {
        let (tokenServer, database, logger) = (tokenServer, database, logger)
        let certs = keyless?.baseURL ?? LocalFleetEngineConfiguration.defaultGoogleCertsURL
        let run = try await RunningService.start(logger: logger) { onStarted in
            LocalFleetEngine(
                trusting: tokenServer, googleCertsURL: certs, database: database, host: "127.0.0.1", port: 0, logger: logger,
                onStarted: onStarted)
        }
        fleetEnginePort = run.port
        fleetEngineRun = run
    }
}
