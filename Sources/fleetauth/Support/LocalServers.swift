import FleetServerSupport
import LocalFleetEngine
import Logging
import ServiceLifecycle
import TokenServer

/// The token server and the local Fleet Engine on one data directory, as `serve` and `demo`
/// run them.
enum LocalServers {
    /// Opens (or creates) the token server of `configuration` and the Fleet Engine's database
    /// next to it, with the Fleet Engine's claim on the directory (release it after shutting
    /// the database down); closes the token server again if the database cannot be opened.
    static func open(
        _ configuration: TokenServerConfiguration,
        metrics: PrometheusMetrics = .init(),
        logger: Logger
    ) async throws -> (tokenServer: TokenServer, database: FleetDatabase, engineLock: DataDirectoryLock) {
        let tokenServer = try await TokenServer.open(configuration, metrics: metrics, logger: logger)
        do {
            let (database, lock) = try await FleetEngineCommand.openDatabase(
                dataDirectory: configuration.dataDirectory, databaseURL: configuration.databaseURL, logger: logger)
            return (tokenServer, database, lock)
        } catch {
            await tokenServer.shutdown()
            throw error
        }
    }
}

extension LocalFleetEngine {
    /// The local Fleet Engine as `serve` and `demo` run it: serving the token server's project
    /// from `database`, trusting each of the token server's signing keys with its role, and the
    /// accounts it signs as through IAM by email, with the keys `googleCertsURL` publishes; with
    /// a gRPC door when `grpcPort` is given.
    init(
        trusting tokenServer: TokenServer,
        googleCertsURL: String = LocalFleetEngineConfiguration.defaultGoogleCertsURL,
        database: FleetDatabase,
        host: String,
        port: Int,
        grpcPort: Int? = nil,
        logger: Logger,
        onStarted: @escaping @Sendable (_ port: Int) async -> Void,
        onGRPCStarted: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) {
        let keyless = tokenServer.options.keyless.signers.map { GoogleManagedAccount(email: $0.value, role: $0.key) }
        self.init(
            configuration: .init(
                projectID: tokenServer.keys.projectID, trustedAccounts: tokenServer.keys.trustedAccounts,
                googleManagedAccounts: keyless, googleCertsURL: googleCertsURL,
                host: host, port: port, grpcPort: grpcPort, onStarted: onStarted, onGRPCStarted: onGRPCStarted),
            store: SQLFleetStore(database: database), logger: logger)
    }
}

/// A service running in a service group of its own on the port it picked, until ``stop()``:
/// how `demo` and the benchmarks run servers in-process.
struct RunningService: Sendable {
    /// The port the service listens on.
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, Never>

    /// Runs the service `make` builds (given the callback it calls with its port once it
    /// listens) and waits for the port; throws if the service ends before it listens.
    static func start(logger: Logger, _ make: @Sendable (@escaping @Sendable (Int) async -> Void) -> any Service) async throws -> RunningService {
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(services: [make { sink.yield($0) }], gracefulShutdownSignals: [], logger: logger)
        let task = Task {
            do {
                try await group.run()
            } catch {
                logger.error("an in-process server stopped", metadata: ["error": "\(error)"])
            }
            sink.finish()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            throw CommandFailure("an in-process server ended before it listened (see the log above)")
        }
        return RunningService(port: port, group: group, task: task)
    }

    /// Shuts the service down gracefully (every accepted request answered) and waits for it.
    func stop() async {
        await group.triggerGracefulShutdown()
        await task.value
    }
}
