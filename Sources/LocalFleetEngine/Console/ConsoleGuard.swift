import FleetAuthServerHTTP
import HTTPTypes
import Hummingbird

/// Keeps the console to whom ``ConsoleAccess`` lets in: a loopback console answers only
/// requests to a loopback name (no DNS rebinding), a keyed one asks every API call for its key,
/// and a write must come from the console's own pages (no cross-site form posts). Every answer
/// it lets through is kept out of caches and sniffing (its refusals are Google-style JSON errors).
struct ConsoleGuard: RouterMiddleware {
    typealias Context = FleetEngineRequestContext

    let access: ConsoleAccess

    /// The request header that carries the console's key.
    static let keyHeader = HTTPField.Name("X-Console-Key")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let host = request.head.authority
        // Read as the router reads it, empty parts dropped (`/console//api/x` is `api/x`): the
        // page's own files and the question whether it needs a key are open; nothing else is.
        let parts = request.uri.path.split(separator: "/").dropFirst()
        let open = ConsoleRoutes.page.paths + [["api", "access"]]
        let needsKey = !open.contains(Array(parts))
        if case .key = access, !needsKey {
            // Nothing to check: a keyed console is reachable from anywhere by design.
        } else if let refusal = access.refusal(host: host, key: request.headers[Self.keyHeader]) {
            if case .key = access { throw APIError(.unauthenticated, refusal) }
            throw APIError(.permissionDenied, refusal)
        }
        if request.method == .post {
            if let origin = request.headers[.origin], !CrossOriginPolicy.isSameOrigin(origin, host: host) {
                throw APIError(.permissionDenied, "the console takes writes only from its own pages (Origin \(origin))")
            }
            guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
                throw APIError(.invalidArgument, "the console takes writes as application/json")
            }
        }
        var response = try await next(request, context)
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
