import FleetServerSupport
import LocalFleetEngine
import Logging
import TokenServer

/// The token server and the local Fleet Engine on one data directory, as `serve` and `demo`
/// run them.
enum LocalServers {
    /// Opens (or creates) the token server of `configuration` and the Fleet Engine's database
    /// next to it; closes the token server again if the database cannot be opened.
    static func open(
        _ configuration: TokenServerConfiguration,
        metrics: PrometheusMetrics = .init(),
        logger: Logger
    ) async throws -> (tokenServer: TokenServer, database: FleetDatabase) {
        let tokenServer = try await TokenServer.open(configuration, metrics: metrics, logger: logger)
        do {
            let database = try await FleetEngineCommand.openDatabase(
                dataDirectory: configuration.dataDirectory, databaseURL: configuration.databaseURL, logger: logger)
            return (tokenServer, database)
        } catch {
            await tokenServer.shutdown()
            throw error
        }
    }
}

extension LocalFleetEngine {
    /// The local Fleet Engine as `serve` and `demo` run it: serving the token server's project
    /// from `database`, trusting each of the token server's signing keys with its role.
    init(
        trusting tokenServer: TokenServer,
        database: FleetDatabase,
        host: String,
        port: Int,
        logger: Logger,
        onStarted: @escaping @Sendable (_ port: Int) async -> Void
    ) {
        self.init(
            configuration: .init(
                projectID: tokenServer.keys.projectID, trustedAccounts: tokenServer.keys.trustedAccounts,
                host: host, port: port, onStarted: onStarted),
            store: SQLFleetStore(database: database), logger: logger)
    }
}
