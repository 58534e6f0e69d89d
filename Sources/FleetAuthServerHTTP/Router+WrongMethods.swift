import Hummingbird

extension Router {
    /// The methods a known path answers 405 for when it does not take them: HTTP's own, and
    /// `QUERY` (a safe method with a body, which OpenAPI 3.2 describes).
    static var answeredMethods: [HTTPRequest.Method] {
        [.get, .head, .post, .put, .patch, .delete, .options, .trace, HTTPRequest.Method("QUERY")!]
    }

    /// Answers each method a known path does not take with 405 and `Allow: <the methods it
    /// takes>` (Hummingbird would answer 404). Call once, after the last route is added and
    /// after ``APIErrorMiddleware``, so that the refusal is JSON.
    package func answerWrongMethodsWith405() {
        for routes in Dictionary(grouping: routes, by: { $0.path.description }).values {
            let allowed = routes.map(\.method)
            for method in Self.answeredMethods where !allowed.contains(method) {
                on(routes[0].path, method: method) { request, _ -> Response in
                    throw APIError.methodNotAllowed(request.method, allowed: allowed)
                }
            }
        }
    }
}
