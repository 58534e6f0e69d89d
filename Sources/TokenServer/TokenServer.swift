import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The token server ("your server" in Google's guides): logs app users in, checks that the
/// caller is assigned to the vehicle, trip, delivery vehicle or tracking id it asks about, and
/// returns a short-lived token scoped to it, signed with one key per Fleet Engine role.
///
/// Build one from a data directory with ``open(_:metrics:logger:)``; then serve
/// ``application(host:port:onRunning:)`` or mount ``buildRouter()`` yourself.
package final class TokenServer: Sendable {
    /// Accounts, assignments, sessions, admin key.
    package let store: TokenServerStore
    /// The signing keys, rotated with no restart.
    package let keyRing: SigningKeyRing
    /// Where the server's metrics are recorded.
    package let metrics: PrometheusMetrics
    /// Lifetimes, bcrypt cost, throttling, clock.
    package let options: TokenServerOptions
    /// What happened to the admin key at ``open(_:metrics:logger:)``; `nil` for servers built
    /// from parts.
    package let adminKeySetup: AdminKeyFile.Setup?

    let logger: Logger
    let accounts: AccountAdministration
    let throttle: LoginThrottle
    let issuer: TokenIssuer
    /// Which web pages may call the session and token routes.
    let crossOrigin: CrossOriginPolicy
    /// The claim on the data directory of a server on SQLite (replicas share PostgreSQL).
    private let directoryLock: DataDirectoryLock?
    /// The token answers being computed in the channel pipeline, which ``shutdown()`` waits for.
    private let tokenAnswersInFlight = PipelineAnswersInFlight()

    private init(
        store: TokenServerStore,
        keyRing: SigningKeyRing,
        options: TokenServerOptions,
        metrics: PrometheusMetrics,
        logger: Logger,
        adminKeySetup: AdminKeyFile.Setup?,
        directoryLock: DataDirectoryLock?
    ) throws {
        try options.oidc.check()
        self.store = store
        self.keyRing = keyRing
        self.options = options
        self.metrics = metrics
        self.logger = logger
        self.adminKeySetup = adminKeySetup
        self.directoryLock = directoryLock
        self.accounts = AccountAdministration(
            store: store, hasher: PasswordHasher(cost: options.bcryptCost), now: options.now)
        self.throttle = LoginThrottle(policy: options.loginThrottle, now: options.now)
        self.issuer = TokenIssuer(
            store: store, keyRing: keyRing, options: options, metrics: TokenServerMetrics(metrics: metrics),
            logger: logger)
        self.crossOrigin = .tokenServer(allowing: options.allowedOrigins, metrics: metrics)
    }

    /// Opens (or on first start creates) the data directory: the SQLite database (unless a
    /// PostgreSQL URL is configured), the signing keys (``SigningKeyRing``, written out to
    /// `keys/`) and `admin-key`; the keys are then followed for rotations. On SQLite the server
    /// claims the directory (`token-server.lock`): a second server on it refuses to start,
    /// saying which process has it.
    package static func open(
        _ configuration: TokenServerConfiguration,
        metrics: PrometheusMetrics = .init(),
        logger: Logger = Logger(label: "fleetauth.token-server")
    ) async throws -> TokenServer {
        do {
            try FileManager.default.createDirectory(
                atPath: configuration.dataDirectory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw KeyFileError(file: configuration.dataDirectory, problem: "cannot be created as a folder")
        }
        let directoryLock =
            configuration.databaseURL == nil
            ? try DataDirectoryLock.acquire(
                directory: configuration.dataDirectory, name: "token-server", server: "token server")
            : nil
        let store: TokenServerStore
        do {
            store = try await TokenServerStore.open(configuration.databaseLocation, logger: logger)
        } catch {
            directoryLock?.release()
            throw error
        }
        do {
            let keyRing = try await SigningKeyRing.open(
                store: store, folder: configuration.keysDirectory, projectID: configuration.projectID,
                options: configuration.options, logger: logger)
            let setup = try await AdminKeyFile.ensure(
                path: configuration.adminKeyPath, store: store, now: configuration.options.epochSeconds)
            let server = try TokenServer(
                store: store, keyRing: keyRing, options: configuration.options, metrics: metrics, logger: logger,
                adminKeySetup: setup,
                directoryLock: directoryLock)
            keyRing.startFollowing()
            return server
        } catch {
            await store.close()
            directoryLock?.release()
            throw error
        }
    }

    /// The router with every route: an index, sessions, tokens, admin, JWKS, health, metrics,
    /// OpenAPI, the browser module (with ``TokenServerOptions/servesExamples`` the example page,
    /// with ``TokenServerOptions/servesConsole`` the console);
    /// a known path asked with a method it does not take answers 405. The session and token
    /// routes answer the pages of the allowed origins (CORS); the admin routes never do.
    package func buildRouter() -> Router<TokenServerContext> {
        let router = Router(context: TokenServerContext.self)
        router.add(middleware: CrossOriginMiddleware(crossOrigin))
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: TraceMiddleware())
        addPublicRoutes(to: router)
        addBrowserRoutes(to: router)
        addSessionRoutes(to: router.group("v1/sessions"))
        addTokenRoutes(to: router.group("v1/tokens"))
        addAdminRoutes(to: router.group("v1/admin"))
        addConsoleRoutes(to: router)
        addIndexRoute(to: router)
        router.answerWrongMethodsWith405()
        return router
    }

    /// A Hummingbird application serving ``buildRouter()`` on `host`:`port` (0 picks a free
    /// port), on `eventLoopGroup` (NIO's shared group when `nil`), with the token routes
    /// answered in the channel pipeline on the loop that read the request
    /// (``TokenPipelineRoute``); `onRunning` is told the port once the server listens. Run it with `runService()`
    /// (graceful shutdown on SIGINT/SIGTERM) or in a `ServiceGroup`.
    package func application(
        host: String = "127.0.0.1",
        port: Int = 8080,
        eventLoopGroup: (any EventLoopGroup)? = nil,
        onRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> Application<RouterResponder<TokenServerContext>> {
        let serverName = "fleetauth-token-server"
        let loops = (eventLoopGroup as? MultiThreadedEventLoopGroup) ?? .singleton
        return Application(
            router: buildRouter(),
            server: FleetHTTPServer.http1(
                answering: TokenPipelineRoute(server: self), serverName: serverName,
                executor: EventLoopTaskExecutor(group: loops),
                inFlight: tokenAnswersInFlight, crossOrigin: crossOrigin, lifecycle: options.lifecycle,
                accessLog: options.accessLog, tls: options.tls),
            configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            eventLoopGroupProvider: eventLoopGroup.map { .shared($0) } ?? .singleton,
            logger: logger
        )
    }

    /// The server as a service of a `ServiceGroup`, as the local Fleet Engine is one: it serves
    /// ``application(host:port:eventLoopGroup:onRunning:)`` on `host`:`port` until the group
    /// shuts down, then lets the requests in flight finish and closes the store
    /// (``shutdown()``). Run it with ``FleetAuthServerHTTP/ServerProcess`` to stop on signals and
    /// drain as ``TokenServerOptions/lifecycle`` says.
    package func service(
        host: String, port: Int, onRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> some Service {
        TokenServerService(server: self, host: host, port: port, onRunning: onRunning)
    }

    /// Waits for the token answers still being computed and their records, closes the store (and its database,
    /// if the server opened it), and gives up the data directory.
    package func shutdown() async {
        keyRing.stopFollowing()
        await tokenAnswersInFlight.drained()
        await issuer.recorder.finish()
        await store.close()
        directoryLock?.release()
    }
}
