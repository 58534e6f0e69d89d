import FleetEngineProtos
import GRPCCore

/// The standard gRPC health service (`grpc.health.v1.Health/Check`): the server and its two
/// Fleet Engine services are `SERVING` while the door is up.
@available(macOS 15.0, iOS 18.0, *)
struct HealthDoor: Grpc_Health_V1_Health.SimpleServiceProtocol {
    /// The services a check may name; the empty name is the server as a whole.
    static let services: Set<String> = [
        "", "maps.fleetengine.v1.VehicleService", "maps.fleetengine.v1.TripService", "grpc.health.v1.Health",
    ]

    /// `SERVING` for the server and its services; `NOT_FOUND` for any other service.
    func check(request: Grpc_Health_V1_HealthCheckRequest, context: ServerContext) async throws -> Grpc_Health_V1_HealthCheckResponse {
        guard Self.services.contains(request.service) else {
            throw RPCError(code: .notFound, message: "this server has no service '\(request.service)'")
        }
        return .with { $0.status = .serving }
    }
}
