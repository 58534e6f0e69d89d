import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import NIOCore
import ServiceLifecycle

/// The local Fleet Engine's gRPC door: `maps.fleetengine.v1.VehicleService`,
/// `maps.fleetengine.v1.TripService` and gRPC health checking, on plaintext HTTP/2. A service
/// of the engine's service group: it serves until the group shuts down, then lets the RPCs
/// under way finish.
@available(macOS 15.0, iOS 18.0, *)
struct GRPCDoor: Service {
    /// The largest request message read: gRPC's usual 4 MiB. A larger one is not read at all:
    /// grpc-swift's transport resets its stream (clients report `UNAVAILABLE` or `CANCELLED`)
    /// and the server goes on. Smaller messages are bounded by validation (e.g. at most 100
    /// attributes of at most 256 characters) and refused with `INVALID_ARGUMENT`.
    static let maximumMessageSize = 4 * 1024 * 1024

    private let transport: HTTP2ServerTransport.Posix
    private let server: GRPCServer<HTTP2ServerTransport.Posix>
    private let onStarted: @Sendable (_ port: Int) async -> Void

    /// A door serving `core` on `host` (an address or a name such as `localhost`) and `port` (0
    /// picks a free one), calling `onStarted` with the port once it listens.
    init(core: FleetEngineCore, host: String, port: Int, logger: Logger, onStarted: @escaping @Sendable (_ port: Int) async -> Void) {
        let transport = HTTP2ServerTransport.Posix(
            address: Self.address(host: host, port: port), transportSecurity: .plaintext,
            config: .defaults { $0.rpc.maxRequestPayloadSize = Self.maximumMessageSize })
        let requests = GRPCRequests(core: core, logger: logger)
        self.transport = transport
        self.server = GRPCServer(
            transport: transport,
            services: [VehicleServiceDoor(requests: requests), TripServiceDoor(requests: requests), HealthDoor()])
        self.onStarted = onStarted
    }

    /// The address to listen on: `host` resolved (the REST door takes names too), or as given
    /// when it does not resolve, so that binding fails with the transport's own error.
    private static func address(host: String, port: Int) -> GRPCNIOTransportCore.SocketAddress {
        guard let resolved = try? NIOCore.SocketAddress.makeAddressResolvingHost(host, port: port), let ip = resolved.ipAddress else {
            return host.contains(":") ? .ipv6(host: host, port: port) : .ipv4(host: host, port: port)
        }
        return resolved.protocol == .inet6 ? .ipv6(host: ip, port: port) : .ipv4(host: ip, port: port)
    }

    /// Serves until the service group shuts down (or the task is cancelled).
    func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.serveOnEventLoops() }
                let address = try await transport.listeningAddress
                if let port = address.ipv4?.port ?? address.ipv6?.port { await onStarted(port) }
                try await group.waitForAll()
            }
        } onGracefulShutdown: {
            server.beginGracefulShutdown()
        }
    }
}
