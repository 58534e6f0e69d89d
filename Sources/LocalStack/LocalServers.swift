import FleetAuthServerHTTP
import FleetAuthServerStorage
import LocalFleetEngine
import Logging
import TokenServer

/// The token server and the local Fleet Engine on one data directory, as `serve` and `demo`
/// run them.
package enum LocalServers {
    /// Opens (or creates) the token server of `configuration` and the Fleet Engine's database
    /// next to it, with the Fleet Engine's claim on the directory (release it after shutting
    /// the database down); closes the token server again if the database cannot be opened.
    package static func open(
        _ configuration: TokenServerConfiguration,
        metrics: PrometheusMetrics = .init(),
        logger: Logger
    ) async throws -> (tokenServer: TokenServer, database: ServerDatabase, engineLock: DataDirectoryLock) {
        let tokenServer = try await TokenServer.open(configuration, metrics: metrics, logger: logger)
        do {
            let (database, lock) = try await EngineDatabase.open(
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
    /// from `database` by the token server's clock, trusting each of its published signing keys
    /// with its role (as they rotate), and the accounts it signs as through IAM by email, with
    /// the keys `googleCertsURL` publishes; with a gRPC door when `grpcPort` is given, and the console `console` allows.
    package init(
        trusting tokenServer: TokenServer,
        googleCertsURL: String = LocalFleetEngineConfiguration.defaultGoogleCertsURL,
        database: ServerDatabase,
        host: String,
        port: Int,
        grpcPort: Int? = nil,
        console: ConsoleAccess = .off,
        logger: Logger,
        onStarted: @escaping @Sendable (_ port: Int) async -> Void,
        onGRPCStarted: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) {
        let keyless = tokenServer.options.keyless.signers.map { GoogleManagedAccount(email: $0.value, role: $0.key) }
        var configuration = LocalFleetEngineConfiguration(
            projectID: tokenServer.keyRing.projectID, trustedAccounts: tokenServer.keyRing.publishedAccounts,
            googleManagedAccounts: keyless, googleCertsURL: googleCertsURL,
            host: host, port: port, grpcPort: grpcPort, console: console, now: tokenServer.options.now,
            lifecycle: tokenServer.options.lifecycle, accessLog: tokenServer.options.accessLog,
            tls: tokenServer.options.tls,
            onStarted: onStarted,
            onGRPCStarted: onGRPCStarted)
        configuration.followsTrustedAccounts = { [keyRing = tokenServer.keyRing] trust in keyRing.onPublish(trust) }
        self.init(configuration: configuration, store: SQLEngineStore(database: database), logger: logger)
    }
}
