import FleetAuthServerHTTP
import FleetEngineProtos
import GRPCCore
import Logging
import NIOCore
import ServiceLifecycle

/// The local Fleet Engine's gRPC door: `maps.fleetengine.v1.VehicleService`,
/// `maps.fleetengine.v1.TripService`, `maps.fleetengine.delivery.v1.DeliveryService` and gRPC
/// health checking, over HTTP/2 on a ``GRPCDoorTransport`` (its own,
/// ``UnaryHTTP2ServerTransport``, unless a benchmark measures another). A service of the engine's service group: it serves
/// until the group shuts down, then lets the RPCs under way finish.
@available(macOS 15.0, iOS 18.0, *)
struct GRPCDoor: Service {
    /// The largest request message read: gRPC's usual 4 MiB. A larger one is refused with
    /// `RESOURCE_EXHAUSTED` as soon as its bytes pass the limit, and the server goes on.
    /// Smaller messages are bounded by validation (e.g. at most 100 attributes of at most 256
    /// characters) and refused with `INVALID_ARGUMENT`.
    static let maximumMessageSize = ProtoJSONBody.maximumMessageSize

    /// The Fleet Engine services the door serves, by their full names.
    static let fleetEngineServices = [
        "maps.fleetengine.v1.VehicleService", "maps.fleetengine.v1.TripService",
        "maps.fleetengine.delivery.v1.DeliveryService",
    ]

    /// grpc-swift's server on the door's transport: serve, the port it listens on, and its drain.
    private let serve: @Sendable () async throws -> Void
    private let listeningPort: @Sendable () async throws -> Int
    private let beginGracefulShutdown: @Sendable () -> Void
    private let shutdown = DoorShutdown()
    private let onStarted: @Sendable (_ port: Int) async -> Void

    /// A door serving `core` on `transport`, calling `onStarted` with the port once it
    /// listens. Its health service says `NOT_SERVING` as `lifecycle` begins to drain.
    init(
        core: FleetEngineCore, transport: some GRPCDoorTransport, lifecycle: ServerLifecycle, logger: Logger,
        onStarted: @escaping @Sendable (_ port: Int) async -> Void
    ) {
        let runner = GRPCCallRunner(core: core, logger: logger)
        let server = GRPCServer(
            transport: transport,
            services: [
                GRPCServiceTable(methods: VehicleServiceMethods.all, runner: runner),
                GRPCServiceTable(methods: TripServiceMethods.all, runner: runner),
                GRPCServiceTable(methods: DeliveryServiceMethods.all, runner: runner),
                HealthDoor(shutdown: shutdown),
            ])
        serve = { try await server.serve() }
        listeningPort = { try await transport.listeningPort }
        beginGracefulShutdown = { server.beginGracefulShutdown() }
        self.onStarted = onStarted
        lifecycle.whenDraining { [shutdown] in shutdown.begin() }
    }

    /// Serves until the service group shuts down (or the task is cancelled).
    func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await serve() }
                await onStarted(try await listeningPort())
                try await group.waitForAll()
            }
        } onGracefulShutdown: { [shutdown, beginGracefulShutdown] in
            shutdown.begin()
            beginGracefulShutdown()
        }
    }
}

@available(macOS 15.0, iOS 18.0, *)
extension UnaryHTTP2ServerTransport {
    /// The door's own transport for `core` on `host` (an address or a name such as
    /// `localhost`) and `port` (0 picks a free one), over TLS with `tls`: location updates are
    /// answered on the event loop that read them when they can be.
    static func door(core: FleetEngineCore, host: String, port: Int, tls: TLSCertificates?, logger: Logger) -> Self {
        Self(
            host: host, port: port, maximumRequestSize: GRPCDoor.maximumMessageSize, tls: tls,
            methodsOnLoop: [
                LocationUpdateOnLoop(Maps_Fleetengine_V1_UpdateVehicleRequest.self, core: core, logger: logger),
                LocationUpdateOnLoop(
                    Maps_Fleetengine_Delivery_V1_UpdateDeliveryVehicleRequest.self, core: core, logger: logger),
            ])
    }
}
