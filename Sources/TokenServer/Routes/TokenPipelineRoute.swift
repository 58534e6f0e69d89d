import FleetAuthServerHTTP
import NIOCore
import NIOHTTP1

/// The token routes (every ``TokenRoute``: `GET /v1/tokens/{role}/{id}`, `GET /v1/tokens/{role}`),
/// answered in the channel pipeline by the same ``TokenServer/tokenAnswer(_:credential:client:path:)``
/// as the router's routes.
///
/// Matches only plain paths (no percent-escape, no extra segment, no trailing slash); anything
/// else is left to the router, which answers it as before.
struct TokenPipelineRoute: PipelineRoute {
    let server: TokenServer

    /// The token asked for, the caller's credential and address, and the request's path.
    struct Match: Sendable {
        let request: TokenRequest
        let credential: TokenRequestCredential?
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
        let segment: Substring.UTF8View
        let id: String?
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            let last = path[path.utf8.index(after: slash)...]
            guard !last.isEmpty, !last.utf8.contains(UInt8(ascii: "/")) else { return nil }
            segment = rest[..<slash]
            id = String(last)
        } else {
            segment = rest
            id = nil
        }
        guard let route = TokenRoute.all.first(where: { $0.segment.utf8.elementsEqual(segment) }),
            let request = route.request(id: id)
        else { return nil }
        return Match(
            request: request, credential: TokenRequestCredential(authorization: head.headers["authorization"]),
            client: client?.ipAddress, path: path)
    }

    func respondWithoutWaiting(to match: Match, body _: ByteBuffer, on eventLoop: any EventLoop)
        -> PipelineAnswerOrFuture?
    {
        server.tokenAnswerWithoutWaiting(
            match.request, credential: match.credential, client: match.client, path: match.path, on: eventLoop)
    }

    func respond(to match: Match, body _: ByteBuffer) async -> PipelineAnswer {
        await server.tokenAnswer(match.request, credential: match.credential, client: match.client, path: match.path)
    }
}
