import CoreMetrics
import Foundation
import HTTPTypes

/// Which web pages may read a server's answers (CORS), and what a browser is told: the one
/// home of the decision, used by ``CrossOriginMiddleware`` for the router's routes and by the
/// pipeline route handler for the routes answered before the router.
///
/// Two shapes: the token server allows listed origins only (``tokenServer(allowing:metrics:)``),
/// and the local Fleet Engine answers every origin as Google's APIs do
/// (``fleetEngine``).
package struct CrossOriginPolicy: Sendable {
    /// Whose pages may read answers.
    package enum Origins: Sendable {
        /// Every origin, echoed back (a token in `Authorization` is not a browser credential).
        case any
        /// Only these.
        case listed(AllowedOrigins)
    }

    /// What a request's `Origin` makes of it.
    package enum Verdict: Sendable, Equatable {
        /// No `Origin`, or the server's own: nothing to allow.
        case sameOrigin
        /// A page of this origin may read the answer.
        case allowed(origin: String)
        /// A page of another origin, not allowed: the answer carries no CORS header, so the
        /// browser keeps it from the page.
        case refused
    }

    /// Whose pages may read answers.
    package let origins: Origins
    /// The paths (prefixes) the policy covers; others never answer CORS (admin routes).
    package let pathPrefixes: [String]
    /// Methods a preflight may ask for.
    package let allowedMethods: [HTTPRequest.Method]
    /// Request headers a preflight may ask for (lowercased).
    package let allowedHeaders: [String]
    /// Answer headers a page may read beyond the CORS-safelisted ones.
    package let exposedHeaders: [String]
    /// How long a browser may keep a preflight's answer, in seconds.
    package let maxAgeSeconds: Int
    /// The request headers an answer varies with, sent as `Vary` on every covered answer.
    package let vary: String
    /// The headers of an answer no other origin may read: `Vary` alone (made once; most
    /// requests, an app's, have no `Origin`).
    private let varyOnly: HTTPFields
    /// The lists as header values, joined once.
    private let exposedValue: String, methodsValue: String, headersValue: String
    private let refusals: Counter?

    /// A policy; `metrics` counts refused origins as `fleetauth_cors_refused_total`.
    package init(
        origins: Origins, pathPrefixes: [String], allowedMethods: [HTTPRequest.Method], allowedHeaders: [String],
        exposedHeaders: [String] = [], maxAgeSeconds: Int, vary: [String] = ["Origin"],
        metrics: PrometheusMetrics? = nil
    ) {
        self.origins = origins
        self.pathPrefixes = pathPrefixes
        self.allowedMethods = allowedMethods
        self.allowedHeaders = allowedHeaders.map { $0.lowercased() }
        self.exposedHeaders = exposedHeaders
        self.maxAgeSeconds = maxAgeSeconds
        self.vary = vary.joined(separator: ", ")
        self.varyOnly = [.vary: self.vary]
        self.exposedValue = exposedHeaders.joined(separator: ", ")
        self.methodsValue = allowedMethods.map(\.rawValue).joined(separator: ", ")
        self.headersValue = self.allowedHeaders.joined(separator: ", ")
        self.refusals = metrics.map { Counter(label: "fleetauth_cors_refused_total", factory: $0.factory) }
    }

    /// The token server's: the session and token routes, for `allowed` origins only, with
    /// `Authorization` and `Content-Type`, and `Retry-After` readable so that a page can honour it.
    package static func tokenServer(allowing allowed: AllowedOrigins, metrics: PrometheusMetrics) -> CrossOriginPolicy {
        CrossOriginPolicy(
            origins: .listed(allowed), pathPrefixes: ["/v1/sessions", "/v1/tokens/"],
            allowedMethods: [.get, .post, .delete],
            allowedHeaders: ["authorization", "content-type"], exposedHeaders: ["Retry-After"], maxAgeSeconds: 600,
            metrics: metrics)
    }

    /// The local Fleet Engine's, as Google's APIs answer browsers: every origin echoed, the API's
    /// methods, `Authorization`, `Content-Type` and the headers Google's clients add, preflights
    /// kept an hour, and `Vary: Origin, X-Origin, Referer`.
    package static var fleetEngine: CrossOriginPolicy {
        CrossOriginPolicy(
            origins: .any, pathPrefixes: ["/v1/"], allowedMethods: [.delete, .get, .head, .patch, .post, .put],
            allowedHeaders: [
                "authorization", "content-type", "x-goog-api-client", "x-goog-request-params", "x-goog-user-project",
            ],
            exposedHeaders: ["Retry-After"], maxAgeSeconds: 3600, vary: ["Origin", "X-Origin", "Referer"])
    }

    /// Whether the policy covers `path` (without its query).
    package func covers(_ path: some StringProtocol) -> Bool {
        pathPrefixes.contains { path.hasPrefix($0) }
    }

    /// What `origin` (the `Origin` header) makes of a request that came to `host` (its `Host`
    /// header); a refusal is counted.
    package func verdict(origin: String?, host: @autoclosure () -> String?) -> Verdict {
        guard let origin else { return .sameOrigin }
        switch origins {
        case .any where origin != "null":
            return .allowed(origin: origin)
        case .listed(let allowed) where allowed.allows(origin):
            return .allowed(origin: origin)
        case .any, .listed:
            // Browsers send `Origin` on their own origin's POSTs too: no CORS needed, no refusal.
            if Self.isSameOrigin(origin, host: host()) { return .sameOrigin }
            refusals?.increment()
            return .refused
        }
    }

    /// The headers an answer to a covered request gets: `Vary` always, and for an allowed
    /// origin `Access-Control-Allow-Origin` (never `*`) and `Access-Control-Expose-Headers`.
    package func answerHeaders(for verdict: Verdict) -> HTTPFields {
        guard case .allowed(let origin) = verdict else { return varyOnly }
        var headers = varyOnly
        headers[.accessControlAllowOrigin] = origin
        if !exposedHeaders.isEmpty { headers[.accessControlExposeHeaders] = exposedValue }
        return headers
    }

    /// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`): 204 with
    /// what may be sent, or a 403 that names the rule and carries no CORS header, so that the
    /// browser blocks the request and its console says why. `nil` when it is not one.
    package func preflightAnswer(origin: String?, host: String?, requestedMethod: String?, requestedHeaders: String?)
        -> (HTTPResponse.Status, HTTPFields, APIError?)?
    {
        guard let origin, let requestedMethod else { return nil }
        let verdict = verdict(origin: origin, host: host)
        guard case .allowed = verdict else {
            return (
                .forbidden, answerHeaders(for: .refused),
                APIError.permissionDenied(
                    "pages of origin \(origin) may not call this server: start it with --allow-origin \(origin) to allow them"
                )
            )
        }
        let asked = (requestedHeaders ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
        let methodAllowed = allowedMethods.contains { $0.rawValue == requestedMethod }
        guard methodAllowed, asked.allSatisfy(allowedHeaders.contains) else {
            return (
                .forbidden, answerHeaders(for: .refused),
                APIError.permissionDenied(
                    "a cross-origin \(requestedMethod) with headers [\(asked.joined(separator: ", "))] is not allowed here: "
                        + "methods \(methodsValue), headers \(headersValue)")
            )
        }
        var headers = answerHeaders(for: verdict)
        headers[.accessControlAllowMethods] = methodsValue
        headers[.accessControlAllowHeaders] = headersValue
        headers[.accessControlMaxAge] = String(maxAgeSeconds)
        return (.noContent, headers, nil)
    }

    /// Whether `origin` names the host the request came to (a page of the server's own origin,
    /// which browsers send `Origin` for on POST and DELETE too).
    package static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let schemeEnd = origin.range(of: "://") else { return false }
        let authority = origin[schemeEnd.upperBound...]
        if authority.caseInsensitiveCompare(host) == .orderedSame { return true }
        // A default port is left out of one and may be written in the other.
        let defaultPort = origin.hasPrefix("https:") ? ":443" : ":80"
        return (authority + defaultPort).caseInsensitiveCompare(host) == .orderedSame
            || authority.caseInsensitiveCompare(host + defaultPort) == .orderedSame
    }
}
