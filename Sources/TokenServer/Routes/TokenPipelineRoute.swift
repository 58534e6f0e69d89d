import HTTPTypes
import ServerHTTP

/// The token routes, answered in the channel pipeline: `GET /v1/tokens/{kind}/{id}` and
/// `GET /v1/tokens/fleet-reader`, by the same ``TokenServer/tokenAnswer(_:headers:path:)``
/// as the router's routes.
///
/// Matches only plain paths (no percent-escape, no extra segment, no trailing slash); anything
/// else is left to the router, which answers it as before.
struct TokenPipelineRoute: PipelineRoute {
    let server: TokenServer

    /// The token asked for, the request's headers and its path.
    struct Match: Sendable {
        let request: TokenRequest
        let headers: HTTPFields
        let path: String
    }

    func match(_ head: HTTPRequest) -> Match? {
        guard head.method == .get, let target = head.path else { return nil }
        let path = target.prefix { $0 != "?" }
        guard path.hasPrefix("/v1/tokens/"), !path.contains("%") else { return nil }
        let segments = path.dropFirst("/v1/tokens/".count).split(separator: "/", omittingEmptySubsequences: false)
        let request: TokenRequest
        switch segments.count {
        case 1 where segments[0] == "fleet-reader":
            request = .fleetReader
        case 2 where !segments[1].isEmpty:
            guard let route = TokenServer.resourceTokenRoutes.first(where: { $0.segment == segments[0] }) else { return nil }
            request = .resource(Resource(route.kind, id: String(segments[1])))
        default:
            return nil
        }
        return Match(request: request, headers: head.headerFields, path: String(path))
    }

    func respond(to match: Match) async -> PipelineAnswer {
        await server.tokenAnswer(match.request, headers: match.headers, path: match.path)
    }
}
