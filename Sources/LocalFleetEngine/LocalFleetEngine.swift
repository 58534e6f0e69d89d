import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// An offline stand-in for Fleet Engine's on-demand vehicles and trips API (v1 REST paths,
/// proto3 JSON, and gRPC's `maps.fleetengine.v1` services when given a gRPC port) that checks
/// every token as Fleet Engine does. Its REST door is described by
/// `docs/local-fleet-engine.openapi.yaml`, served at `/openapi.yaml`. Embeddable: build it from a
/// configuration and a store, then ``run()`` it, alone or in a `ServiceGroup`.
///
/// ```swift
/// let database = try await ServerDatabase.open(.sqlite(path: "fleet.sqlite"), logger: logger)
/// let store = SQLEngineStore(database: database)
/// try await store.prepare()
/// let engine = LocalFleetEngine(configuration: .init(projectID: "my-fleet", jwksURL: jwks), store: store, logger: logger)
/// try await engine.run()
/// ```
package struct LocalFleetEngine: Service {
    /// The configuration.
    package let configuration: LocalFleetEngineConfiguration
    private let store: any EngineStore
    private let metrics: PrometheusMetrics
    private let logger: Logger

    /// An engine serving `configuration`, keeping its vehicles and trips in `store` and counting
    /// its requests in `metrics` (served on `/metrics`).
    package init(
        configuration: LocalFleetEngineConfiguration, store: any EngineStore, metrics: PrometheusMetrics = .init(),
        logger: Logger = Logger(label: "fleet-engine")
    ) {
        self.configuration = configuration
        self.store = store
        self.metrics = metrics
        self.logger = logger
    }

    /// Loads the vehicles and trips, starts loading the trusted keys, and builds the HTTP application, with
    /// the gRPC door among its services (not yet listening): for running under a `ServiceGroup`
    /// or HummingbirdTesting.
    package func makeApplication() async throws -> some ApplicationProtocol {
        let configuration = configuration
        // The test harness (/emulator/v1/) is on with the console, on its terms.
        let clock = EngineClock(base: configuration.now)
        let console =
            configuration.console == .off
            ? nil
            : FleetConsole(access: configuration.console, provider: configuration.projectID, clock: clock.function)
        let state = try await EngineState(
            store: store, provider: configuration.projectID, logger: logger, activity: console?.activity)
        let authenticator = makeAuthenticator(clock: clock)
        configuration.followsTrustedAccounts?({ authenticator.trust($0) })
        authenticator.startLoadingKeys()
        let faults = console == nil ? nil : FaultInjector()
        let core = FleetEngineCore(
            state: state, policy: AccessPolicy(providerID: configuration.projectID), authenticator: authenticator,
            now: clock.function,
            metrics: FleetEngineMetrics(prometheus: metrics), requests: console?.requests, faults: faults)

        let router = try makeRouter(
            core: core, state: state, authenticator: authenticator, console: console, clock: clock, faults: faults)

        let serverName = "local-fleet-engine"
        let updatesInFlight = PipelineAnswersInFlight()
        let application = Application(
            router: router,
            server: FleetHTTPServer.http1(
                answering: LocationUpdateRoute(core: core, logger: logger), serverName: serverName,
                executor: EventLoopTaskExecutor(),
                inFlight: updatesInFlight, crossOrigin: .fleetEngine, lifecycle: configuration.lifecycle,
                accessLog: configuration.accessLog, tls: configuration.tls),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: serverName),
            services: [WriteDrain(state: state, updatesInFlight: updatesInFlight)] + grpcDoor(core, console: console),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                console?.doorListens("REST", at: "http://\(configuration.host):\(port)")
                await configuration.onStarted(port)
            },
            logger: logger
        )
        return application
    }

    /// The engine's verifier of tokens, trusting the configuration's accounts and key sources,
    /// with tokens' times read from `clock`.
    private func makeAuthenticator(clock: EngineClock) -> TokenAuthenticator {
        let configuration = configuration
        return TokenAuthenticator(
            accounts: configuration.trustedAccounts,
            sources: configuration.trustedKeySources,
            minimumRefreshInterval: configuration.jwksMinimumRefreshInterval,
            fetchTimeout: configuration.jwksFetchTimeout,
            logger: logger
        ) { accounts in
            TokenVerifier(
                trusting: accounts, cacheCapacity: configuration.verifiedTokenCacheCapacity, now: clock.function)
        }
    }

    /// The REST door's router: health, metrics and the OpenAPI document, the providers' routes,
    /// and the console and test harness when they are on.
    private func makeRouter(
        core: FleetEngineCore, state: EngineState, authenticator: TokenAuthenticator, console: FleetConsole?,
        clock: EngineClock, faults: FaultInjector?
    ) throws -> Router<FleetEngineRequestContext> {
        let configuration = configuration
        let router = Router(context: FleetEngineRequestContext.self)
        // Web pages of any origin may call the API, as Google's answers browsers.
        router.add(middleware: CrossOriginMiddleware(CrossOriginPolicy.fleetEngine))
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: TraceMiddleware())
        // Up, with the fleet loaded (reads are served from memory); the store says whether
        // changes can be saved.
        router.addHealthRoute { [store] in await store.health() }
        router.addLivenessAndReadinessRoutes(lifecycle: configuration.lifecycle) { [store] in
            let health = await store.health()
            return health.isHealthy ? [] : ["database: \(health.database)"]
        }
        router.addMetricsRoute(metrics)
        router.addOpenAPIRoute(PackageResources.local_fleet_engine_openapi_yaml)
        let providers = router.group("v1/providers/:provider")
        VehicleRoutes(core: core).register(on: providers)
        TripRoutes(core: core).register(on: providers)
        DeliveryRoutes(core: core).register(on: providers)
        try ProviderIndex(provider: configuration.projectID, router: router, grpcPort: configuration.grpcPort).register(
            on: router)
        if let console, let faults {
            ConsoleRoutes(console: console, state: state, authenticator: authenticator).register(on: router)
            EmulatorRoutes(console: console, state: state, clock: clock, faults: faults).register(on: router)
        }
        router.answerWrongMethodsWith405()
        return router
    }

    /// The gRPC door when the configuration has a gRPC port (and the platform has grpc-swift 2).
    private func grpcDoor(_ core: FleetEngineCore, console: FleetConsole?) -> [any Service] {
        guard let grpcPort = configuration.grpcPort else { return [] }
        guard #available(macOS 15.0, iOS 18.0, *) else {
            logger.error("the gRPC door needs macOS 15 or later; serving REST only")
            return []
        }
        let configuration = configuration
        let transport: any GRPCDoorTransport =
            configuration.grpcTransport?.transport(
                host: configuration.host, port: grpcPort, maximumMessageSize: GRPCDoor.maximumMessageSize)
            ?? UnaryHTTP2ServerTransport.door(
                core: core, host: configuration.host, port: grpcPort, tls: configuration.tls, logger: logger)
        return [
            GRPCDoor(core: core, transport: transport, lifecycle: configuration.lifecycle, logger: logger) { port in
                console?.doorListens("gRPC", at: "\(configuration.host):\(port)")
                await configuration.onGRPCStarted(port)
            }
        ]
    }

    /// Serves until the task is cancelled or the enclosing `ServiceGroup` shuts down
    /// gracefully (give the group `gracefulShutdownSignals: [.sigterm, .sigint]` to stop on
    /// signals, as `fleetauth fleet-engine` does); a graceful shutdown waits for every
    /// accepted write to be saved.
    package func run() async throws {
        try await makeApplication().run()
    }
}

extension LocalFleetEngine: CustomStringConvertible {
    /// What a service group logs of the engine: its provider and address, nothing of its
    /// configuration's secrets.
    package var description: String {
        "LocalFleetEngine(provider: \(configuration.projectID), \(configuration.host):\(configuration.port), console: \(configuration.console))"
    }
}

/// Waits, on graceful shutdown, until every write the engine accepted is saved, those of
/// location updates still waiting for a key fetch among them.
private struct WriteDrain: Service {
    let state: EngineState
    let updatesInFlight: PipelineAnswersInFlight

    func run() async throws {
        try? await gracefulShutdown()
        await updatesInFlight.drained()
        await state.drain()
    }
}
