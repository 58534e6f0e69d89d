import Hummingbird
import ServerHTTP

/// A token answer: epoch seconds and relative seconds both, for clients of either convention.
struct TokenResponse {
    let token: String
    let issuedAt: Int64
    let expiresAt: Int64
    /// The server's time of the answer, in epoch seconds.
    let now: Int64

    /// What is left of the token, for clients that count from when they asked: its whole
    /// lifetime for a new token, less for one handed out again.
    var expiresInSeconds: Int64 { expiresAt - now }

    /// The answer as JSON, keys sorted, written by hand (`JSONEncoder` took about 4% of the
    /// CPU of a token request).
    var json: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.utf8.count + 96)
        bytes.append(contentsOf: #"{"expiresAt":\#(expiresAt),"expiresInSeconds":\#(expiresInSeconds),"issuedAt":\#(issuedAt),"token":"#.utf8)
        JSONString.append(token, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

extension TokenServer {
    /// `GET /v1/tokens/driver/{vehicleId}`, `/consumer/{tripId}`,
    /// `/delivery-driver/{deliveryVehicleId}`, `/delivery-consumer/{trackingId}`, `/fleet-reader`.
    func addTokenRoutes(to group: RouterGroup<TokenServerContext>) {
        let routes: [(path: RouterPath, parameter: String, kind: ResourceKind)] = [
            ("driver/:vehicleId", "vehicleId", .vehicle),
            ("consumer/:tripId", "tripId", .trip),
            ("delivery-driver/:deliveryVehicleId", "deliveryVehicleId", .deliveryVehicle),
            ("delivery-consumer/:trackingId", "trackingId", .trackingID),
        ]
        for route in routes {
            group.get(route.path) { request, context in
                let resource = Resource(route.kind, id: try context.parameters.decoded(route.parameter))
                return try await self.tokenResponse(.resource(resource), for: request)
            }
        }
        group.get("fleet-reader") { request, _ in
            try await self.tokenResponse(.fleetReader, for: request)
        }
    }

    private func tokenResponse(_ tokenRequest: TokenRequest, for request: Request) async throws -> Response {
        let minted = try await issuer.issue(tokenRequest, credential: BearerToken.credential(from: request))
        return JSONResponse.make(json: TokenResponse(
            token: minted.token,
            issuedAt: minted.claims.issuedAt,
            expiresAt: minted.claims.expiresAt,
            now: options.epochSeconds
        ).json)
    }
}
