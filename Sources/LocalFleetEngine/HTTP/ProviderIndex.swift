import FleetAuthServerHTTP
import Foundation
import Hummingbird

/// `GET /v1/providers/{provider}`: what this engine serves for its provider, for a developer who
/// opens the address `serve` prints: every REST method with its path, the gRPC door, and the
/// operational routes. Not a Google method; it needs no token and shows nothing of the fleet.
struct ProviderIndex: Encodable {
    /// The gRPC door, when the engine has one.
    struct GRPCEndpoint: Encodable {
        /// `nil` while the port is picked at start.
        let port: Int?
        let services: [String]
    }

    let provider: String
    /// `METHOD /v1/providers/{provider}/…`, as the router has them.
    let rest: [String]
    let grpc: GRPCEndpoint?
    let openapi = "/openapi.yaml"
    let health = "/healthz"
    let metrics = "/metrics"

    /// The index of `router`'s routes under `/v1/providers/:provider/`, with the provider's name
    /// filled in.
    init(provider: String, router: Router<FleetEngineRequestContext>, grpcPort: Int?) {
        self.provider = provider
        self.rest = router.routeList(under: "/v1/providers/\(provider)/", filling: ["provider": provider])
        self.grpc = grpcPort.map { GRPCEndpoint(port: $0 == 0 ? nil : $0, services: GRPCDoor.fleetEngineServices) }
    }

    /// Adds the route to `router`, answering this index for the engine's provider and 404 for
    /// any other.
    func register(on router: Router<FleetEngineRequestContext>) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(self)
        let provider = provider
        router.get("v1/providers/:provider") { _, context in
            guard context.parameters.get("provider") == provider else {
                throw APIError.notFound("this Fleet Engine serves provider '\(provider)'")
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }
}
