import FleetServerSupport
import LocalFleetEngine
import Logging
import TokenServer

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
