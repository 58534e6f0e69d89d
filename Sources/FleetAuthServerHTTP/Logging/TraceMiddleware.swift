import HTTPTypes
import Hummingbird

/// Serves each request with its trace (``RequestTrace``) as the task's current one, so that
/// every line logged while it is served carries it.
package struct TraceMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The middleware.
    package init() {}

    /// Runs the rest of the chain with the request's trace, if it names one.
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let trace = RequestTrace(
            traceparent: request.headers[.traceparent], cloudTraceContext: request.headers[.cloudTraceContext])
        guard let trace else { return try await next(request, context) }
        return try await RequestTrace.$current.withValue(trace) { try await next(request, context) }
    }
}

extension HTTPField.Name {
    /// W3C Trace Context's header.
    static let traceparent = HTTPField.Name("traceparent")!
    /// Google's own trace header, which its load balancers and Cloud Run set.
    static let cloudTraceContext = HTTPField.Name("X-Cloud-Trace-Context")!
}
