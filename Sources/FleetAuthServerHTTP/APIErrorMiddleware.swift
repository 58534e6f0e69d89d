import FleetAuthServerStorage
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// Makes every refusal a JSON ``APIError`` body: Hummingbird's own errors (no such route,
/// body too large, …) are translated, and any other error is answered by
/// ``APIError/refusal(for:method:path:logger:)``: 503 for a database that does not answer, a
/// generic 500 for the rest.
package struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// A middleware for a router's outermost layer.
    package init() {}

    /// Passes the request on, turning whatever is thrown into an ``APIError`` response.
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            return try Self.translate(error, for: request).response(from: request, context: context)
        } catch is NIOTooManyBytesError {
            // A route's `collect(upTo:)` met a body over its limit.
            return try APIError.bodyTooLarge.response(from: request, context: context)
        } catch let error as HTTPParserError {
            // The body turned out not to be valid HTTP/1.1 while a route read it.
            return try APIError.parseError(error).response(from: request, context: context)
        } catch {
            return try APIError.refusal(
                for: error, method: request.method, path: request.uri.path, logger: context.logger
            )
            .response(from: request, context: context)
        }
    }

    /// The ``APIError`` for one of Hummingbird's own errors, keeping its safe message.
    static func translate(_ error: HTTPError, for request: Request) -> APIError {
        let message = error.body ?? error.status.reasonPhrase
        switch error.status.code {
        case 401: return .unauthenticated(message)
        case 403: return .permissionDenied(message)
        case 404: return .notFound(error.body ?? "no route matches \(request.method) \(request.uri.path)")
        case 405:
            return APIError(
                .unimplemented, "this path does not take \(request.method.rawValue)", status: .methodNotAllowed)
        case 409: return .alreadyExists(message)
        case 413: return .bodyTooLarge
        case 429: return APIError(.resourceExhausted, message, retryAfter: .seconds(1))
        case 400..<500: return .invalidArgument(message)
        case 503: return APIError(.unavailable, message)
        default: return .internal
        }
    }
}

extension APIError {
    /// 503 with `Retry-After`: the database did not answer, lost the connection, or cannot
    /// take a write (a full or read-only disk).
    package init(_ unavailable: DatabaseUnavailable) {
        self.init(.unavailable, "\(unavailable); try again", retryAfter: unavailable.retryAfter)
    }

    /// The answer to a request that failed with `error`: the error itself when it is an
    /// ``APIError``; 503 with `Retry-After` when the database did not answer or lost the
    /// connection (``DatabaseUnavailable``, whose message names no address or value); else the
    /// generic 500, logged with the error's type and the request's method and path, of which
    /// the caller learns nothing more.
    package static func refusal(for error: any Error, method: HTTPRequest.Method, path: String, logger: Logger)
        -> APIError
    {
        if let error = error as? APIError { return error }
        if let unavailable = error as? DatabaseUnavailable {
            logger.warning(
                "request failed: the database is unavailable",
                metadata: ["method": "\(method)", "path": "\(path)", "reason": "\(unavailable)"])
            return APIError(unavailable)
        }
        logger.error(
            "request failed",
            metadata: [
                "method": "\(method)",
                "path": "\(path)",
                // Only the type: an error's description may quote values (a URL with its
                // password, a request's secrets), and logs hold no secret.
                "errorType": "\(String(reflecting: type(of: error)))",
            ]
        )
        return .internal
    }
}
