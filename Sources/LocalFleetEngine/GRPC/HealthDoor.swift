import FleetEngineProtos
import GRPCCore

/// The standard gRPC health service (`grpc.health.v1.Health`): the server and its Fleet
/// Engine services are `SERVING` while the door is up, and `NOT_SERVING` once the engine drains
/// (SIGTERM, as `/readyz` turns 503) or the door shuts down.
@available(macOS 15.0, iOS 18.0, *)
struct HealthDoor: Grpc_Health_V1_Health.SimpleServiceProtocol {
    /// The services a caller may name; the empty name is the server as a whole.
    static let services = Set(["", "grpc.health.v1.Health"] + GRPCDoor.fleetEngineServices)

    /// The door's shutdown, which `Watch` streams wait for.
    let shutdown: DoorShutdown

    /// `SERVING` for the server and its services (`NOT_SERVING` once it drains); `NOT_FOUND`
    /// for any other service.
    func check(request: Grpc_Health_V1_HealthCheckRequest, context: ServerContext) async throws
        -> Grpc_Health_V1_HealthCheckResponse
    {
        guard Self.services.contains(request.service) else {
            throw RPCError(code: .notFound, message: "this server has no service '\(request.service)'")
        }
        return .with { $0.status = shutdown.hasBegun ? .notServing : .serving }
    }

    /// The status now (`SERVICE_UNKNOWN` for a service the server does not know), then, when
    /// the server begins to drain or shut down, `NOT_SERVING`, and the stream ends so that the
    /// shutdown does not wait on it. Ends without a word as soon as the caller hangs up.
    func watch(
        request: Grpc_Health_V1_HealthCheckRequest, response: RPCWriter<Grpc_Health_V1_HealthCheckResponse>,
        context: ServerContext
    ) async throws {
        let known = Self.services.contains(request.service)
        guard !shutdown.hasBegun else {
            try await response.write(.with { $0.status = known ? .notServing : .serviceUnknown })
            return
        }
        try await response.write(.with { $0.status = known ? .serving : .serviceUnknown })
        // Nothing else changes a status while the door is up.
        guard await shutdown.wait() == .shuttingDown else { return }
        try await response.write(.with { $0.status = known ? .notServing : .serviceUnknown })
    }
}
