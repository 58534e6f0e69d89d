import NIOCore
import NIOHTTP1
import ServerHTTP

/// The token routes, answered in the channel pipeline: `GET /v1/tokens/{kind}/{id}` and
/// `GET /v1/tokens/fleet-reader`, by the same ``TokenServer/tokenAnswer(_:credential:client:path:)``
/// as the router's routes.
///
/// Matches only plain paths (no percent-escape, no extra segment, no trailing slash); anything
/// else is left to the router, which answers it as before.
struct TokenPipelineRoute: PipelineRoute {
    let server: TokenServer

    /// The token asked for, the caller's credential and address, and the request's path.
    struct Match: Sendable {
        let request: TokenRequest
        let credential: BearerCredential?
        let client: String?
        let path: Substring
    }

    private static let prefix = "/v1/tokens/".utf8

    func match(_ head: HTTPRequestHead, from client: SocketAddress?) -> Match? {
        guard head.method == .GET else { return nil }
        let target = head.uri
        let path = target[..<(target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)]
        guard path.utf8.starts(with: Self.prefix), !path.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let rest = path.utf8.dropFirst(Self.prefix.count)
        let request: TokenRequest
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            let id = path[path.utf8.index(after: slash)...]
            guard !id.isEmpty, !id.utf8.contains(UInt8(ascii: "/")),
                let route = TokenServer.resourceTokenRoutes.first(where: {
                    $0.segment.utf8.elementsEqual(rest[..<slash])
                })
            else { return nil }
            request = .resource(Resource(route.kind, id: String(id)))
        } else if rest.elementsEqual("fleet-reader".utf8) {
            request = .fleetReader
        } else {
            return nil
        }
        return Match(
            request: request, credential: BearerToken.credential(from: head.headers["authorization"]),
            client: client?.ipAddress, path: path)
    }

    func respondWithoutWaiting(to match: Match, body _: ByteBuffer, on eventLoop: any EventLoop) -> PipelineReply? {
        server.tokenAnswerWithoutWaiting(
            match.request, credential: match.credential, client: match.client, path: match.path, on: eventLoop)
    }

    func respond(to match: Match, body _: ByteBuffer) async -> PipelineAnswer {
        await server.tokenAnswer(match.request, credential: match.credential, client: match.client, path: match.path)
    }
}
