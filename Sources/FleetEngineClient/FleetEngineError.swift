import FleetTokenProvider
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a Fleet Engine call failed. Descriptions never contain a token.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum FleetEngineError: Error, Sendable {
    /// Fleet Engine answered with an error: the HTTP status, Google's status name (e.g.
    /// `PERMISSION_DENIED`), the message saying which rule refused the call, and the wait its
    /// `Retry-After` header asked for, if any.
    case refused(httpStatus: Int, status: String, message: String, retryAfter: Duration? = nil)
    /// The request did not reach Fleet Engine, or its answer did not come back.
    case transport(URLError.Code)
    /// The answer was not the JSON expected.
    case malformedResponse
    /// The request could not be written (e.g. a number that is not finite); it was not sent.
    case invalidRequest(String)
    /// No token could be had for the call: the provider's error, a ``TokenProviderError``
    /// for ``CachingTokenProvider`` with ``HTTPTokenFetcher``.
    case tokenUnavailable(any Error)

    /// Whether trying again later may succeed: transport errors, 5xx, 429 and 408 from Fleet
    /// Engine, and token fetches that failed for the same kinds of reason.
    public var isTransient: Bool {
        switch self {
        case .refused(let httpStatus, _, _, _): httpStatus >= 500 || httpStatus == 429 || httpStatus == 408
        case .transport: true
        case .malformedResponse, .invalidRequest: false
        case .tokenUnavailable(let error):
            switch error as? TokenProviderError {
            case .transport, .timedOut, .serverError, .rateLimited: true
            default: false
            }
        }
    }

    /// Whether the request itself is at fault (400, or not writable), so that sending other
    /// data may succeed.
    public var isInvalidRequest: Bool {
        switch self {
        case .invalidRequest: true
        case .refused(let httpStatus, _, _, _): httpStatus == 400
        default: false
        }
    }

    /// The HTTP status Fleet Engine answered with, `nil` when it did not answer.
    public var httpStatus: Int? {
        if case .refused(let httpStatus, _, _, _) = self { return httpStatus }
        return nil
    }

    /// How long Fleet Engine asked to wait before trying again (`Retry-After`), if it did.
    public var retryAfter: Duration? {
        if case .refused(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}

extension FleetEngineError: LocalizedError {
    /// A sentence for logs and alerts.
    public var errorDescription: String? {
        switch self {
        case .refused(let httpStatus, let status, let message, _):
            "Fleet Engine refused the call (\(httpStatus) \(status)): \(message)"
        case .transport(let code): "Fleet Engine could not be reached (URLError \(code.rawValue))."
        case .malformedResponse: "Fleet Engine's answer is not the JSON expected."
        case .invalidRequest(let problem): "The request could not be written: \(problem)"
        case .tokenUnavailable(let error): "No token: \(error)"
        }
    }
}

extension FleetEngineError: CustomStringConvertible {
    /// The same text as ``errorDescription``.
    public var description: String { errorDescription ?? "FleetEngineError" }
}
