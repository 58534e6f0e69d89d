import FleetAuthServerHTTP
import FleetTokens
import Foundation
import Hummingbird
import NIOCore

/// A token answer: epoch seconds and relative seconds both, for clients of either convention.
struct TokenResponse: Encodable {
    let token: String
    let issuedAt: Int64
    let expiresAt: Int64
    /// What is left of the token, for clients that count from when they asked: its whole
    /// lifetime for a new token, less for one handed out again.
    let expiresInSeconds: Int64

    /// The answer for a token of these times, given at `now` (epoch seconds).
    init(token: String, issuedAt: Int64, expiresAt: Int64, now: Int64) {
        self.token = token
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.expiresInSeconds = expiresAt - now
    }

    /// The answer as JSON, keys sorted (``JSONResponse/encoder``).
    var json: Data {
        // Strings and integers always encode; the fallback keeps this non-throwing.
        (try? JSONResponse.encoder.encode(self)) ?? Data("{}".utf8)
    }
}

/// A token route under `/v1/tokens/`, read from the role table (``AccountRole``): the default
/// role of each kind of resource names one, `driver/{vehicleId}`, and each role assigned to
/// none has its own, `fleet-reader`.
struct TokenRoute: Sendable {
    /// The path segment after `/v1/tokens/`: the role's name.
    let segment: String
    /// What the route asks for: a token for the resource the next segment names, or a role's
    /// unscoped token (the route ends at the segment).
    let asks: Asks

    /// What a ``TokenRoute`` asks for.
    enum Asks: Sendable {
        /// A token for one resource of this kind.
        case resource(ResourceKind)
        /// This role's unscoped token.
        case unscoped(AccountRole)
    }

    /// Every token route.
    static let all: [TokenRoute] = AccountRole.allCases.compactMap { role in
        guard let kind = role.resourceKind else { return TokenRoute(segment: role.rawValue, asks: .unscoped(role)) }
        return kind.accountRoles.first == role ? TokenRoute(segment: role.rawValue, asks: .resource(kind)) : nil
    }

    /// The router's path under `/v1/tokens/`: `driver/:vehicleId`, `fleet-reader`.
    var routerPath: RouterPath {
        switch asks {
        case .resource(let kind): RouterPath("\(segment)/:\(kind.tokenRouteParameter)")
        case .unscoped: RouterPath(segment)
        }
    }

    /// The request of this route with `id`, the path's last segment (`nil` when it ends at
    /// ``segment``); `nil` when the path does not fit the route.
    func request(id: String?) -> TokenRequest? {
        switch (asks, id) {
        case (.resource(let kind), .some(let id)): .resource(Resource(kind, id: id))
        case (.unscoped(let role), .none): .unscoped(role)
        default: nil
        }
    }
}

extension TokenServer {
    /// `GET /v1/tokens/driver/{vehicleId}`, `/consumer/{tripId}`, … and `/fleet-reader`: every
    /// ``TokenRoute``.
    ///
    /// ``application(host:port:eventLoopGroup:onRunning:)`` answers these in the channel
    /// pipeline (``TokenPipelineRoute``); the router has them too, for a server that mounts
    /// ``buildRouter()`` itself, and for their 405s.
    func addTokenRoutes(to group: RouterGroup<TokenServerContext>) {
        for route in TokenRoute.all {
            group.get(route.routerPath) { request, context in
                let id: String? =
                    switch route.asks {
                    case .resource(let kind): try context.parameters.decoded(kind.tokenRouteParameter)
                    case .unscoped: nil
                    }
                guard let tokenRequest = route.request(id: id) else { throw HTTPError(.notFound) }
                return await self.tokenAnswer(
                    tokenRequest, credential: TokenRequestCredential(headers: request.headers),
                    client: context.clientAddress, path: request.uri.path[...]
                ).response
            }
        }
    }

    /// The answer to a token request with `credential` from `client` (its IP address): the
    /// token, or the refusal. `path` is for the log, should something fail that no rule expects.
    func tokenAnswer(
        _ tokenRequest: TokenRequest, credential: TokenRequestCredential?, client: String?, path: Substring
    )
        async -> PipelineAnswer
    {
        do {
            return answer(try await issuer.issue(tokenRequest, credential: credential, client: client))
        } catch {
            return refusal(error, path: path)
        }
    }

    /// ``tokenAnswer(_:credential:client:path:)`` signed on the calling thread, and given at
    /// once, or once its record is written (a future of `eventLoop`); `nil` when it would wait
    /// for more (see ``TokenIssuer/issueWithoutWaiting(_:credential:client:)``).
    func tokenAnswerWithoutWaiting(
        _ tokenRequest: TokenRequest, credential: TokenRequestCredential?, client: String?, path: Substring,
        on eventLoop: any EventLoop
    ) -> PipelineAnswerOrFuture? {
        let signed: (minted: MintedToken, recording: TokenIssuer.TokenRecording?)?
        do {
            signed = try issuer.issueWithoutWaiting(tokenRequest, credential: credential, client: client)
        } catch {
            return .now(refusal(error, path: path))
        }
        guard let signed else { return nil }
        guard let recording = signed.recording else { return .now(answer(signed.minted)) }
        let promise = eventLoop.makePromise(of: PipelineAnswer.self)
        recording { written in
            switch written {
            case .success: promise.succeed(self.answer(signed.minted))
            case .failure(let error): promise.succeed(self.refusal(error, path: path))
            }
        }
        return .later(promise.futureResult)
    }

    private func answer(_ minted: MintedToken) -> PipelineAnswer {
        let json = TokenResponse(
            token: minted.token, issuedAt: minted.claims.issuedAt, expiresAt: minted.claims.expiresAt,
            now: options.epochSeconds
        ).json
        return PipelineAnswer(status: .ok, headers: JSONResponse.headers, body: ByteBuffer(bytes: json))
    }

    private func refusal(_ error: any Error, path: Substring) -> PipelineAnswer {
        PipelineAnswer(.refusal(for: error, method: .get, path: String(path), logger: logger))
    }
}
