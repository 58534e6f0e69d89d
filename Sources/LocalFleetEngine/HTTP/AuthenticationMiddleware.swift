import FleetServerSupport
import Hummingbird

/// Refuses every request without a valid `Authorization: Bearer <JWT>` with 401
/// `UNAUTHENTICATED`, whose message is the rule the token broke; puts the verified token in
/// the context for the routes.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.token = try await core.authenticate(
            authorization: request.headers[values: .authorization], path: request.uri.path, logger: context.logger)
        return try await next(request, context)
    }
}
