import Hummingbird

/// Answers browsers for the router's routes as a ``CrossOriginPolicy`` says: preflights of
/// covered paths answered here, and every covered answer (refusals included) given the
/// policy's headers. Add it before ``APIErrorMiddleware``, so that it wraps the JSON refusals.
package struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The policy.
    package let policy: CrossOriginPolicy

    /// A middleware for `policy`.
    package init(_ policy: CrossOriginPolicy) {
        self.policy = policy
    }

    /// Answers a covered preflight, or passes the request on and adds the policy's headers.
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard policy.covers(request.uri.path) else { return try await next(request, context) }
        let origin = request.headers[.origin]
        let host = request.head.authority
        if request.method == .options,
            let (status, headers, refusal) = policy.preflightAnswer(
                origin: origin, host: host, requestedMethod: request.headers[.accessControlRequestMethod],
                requestedHeaders: request.headers[.accessControlRequestHeaders])
        {
            guard let refusal else { return Response(status: status, headers: headers) }
            var response = try refusal.response(from: request, context: context)
            response.headers.append(contentsOf: headers)
            return response
        }
        var response = try await next(request, context)
        response.headers.append(contentsOf: policy.answerHeaders(for: policy.verdict(origin: origin, host: host)))
        return response
    }
}
