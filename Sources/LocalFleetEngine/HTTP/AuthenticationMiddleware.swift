import FleetServerSupport
import FleetTokens
import Hummingbird

/// Refuses every request without a valid `Authorization: Bearer <JWT>` with 401
/// `UNAUTHENTICATED`, whose message is the rule the token broke; puts the verified token in
/// the context for the routes.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = FleetEngineRequestContext

    let authenticator: TokenAuthenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        do {
            let token = try BearerToken.extract(from: request.headers)
            context.token = try await authenticator.authenticate(token)
        } catch {
            context.logger.info("token refused", metadata: ["reason": "\(error.reason)", "path": "\(request.uri.path)"])
            throw APIError.unauthenticated(error.description)
        }
        return try await next(request, context)
    }
}
