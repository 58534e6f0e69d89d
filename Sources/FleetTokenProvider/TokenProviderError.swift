import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a token could not be had. Descriptions never contain a token or a credential.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum TokenProviderError: Error, Equatable, Sendable {
    /// The URL template needs an id (named by `placeholder`) that the context does not have.
    case missingAuthorizationContext(placeholder: String)
    /// The token server answered without a token.
    case missingData
    /// The token has no `exp` claim and the response gave no expiry, so it cannot be reused safely.
    case missingExpiry
    /// The response was not the JSON object expected, or a value had the wrong type.
    case malformedResponse
    /// The token server answered 401: the app's own session is missing or no longer valid.
    case unauthorized
    /// The token server answered 403: the user is not assigned to the id asked for.
    case forbidden
    /// The token server answered 429 on every attempt.
    case rateLimited
    /// The token server answered with this 5xx status on every attempt.
    case serverError(status: Int)
    /// The token server answered with a status that is none of the above (e.g. 404).
    case unexpectedStatus(Int)
    /// The fetch took longer than its timeout.
    case timedOut
    /// The request did not reach the token server, or its answer did not come back.
    case transport(URLError.Code)
}

extension TokenProviderError: LocalizedError {
    /// A sentence for logs and alerts.
    public var errorDescription: String? {
        switch self {
        case .missingAuthorizationContext(let placeholder):
            "The authorization context has no value for {\(placeholder)}."
        case .missingData: "The token server's response has no token."
        case .missingExpiry: "The token has no exp claim and the response gave no expiry."
        case .malformedResponse: "The token server's response is not the JSON expected."
        case .unauthorized: "The token server refused the app's credentials (401)."
        case .forbidden: "The token server refused access to this id (403)."
        case .rateLimited: "The token server is rate limiting requests (429)."
        case .serverError(let status): "The token server failed (\(status))."
        case .unexpectedStatus(let status): "The token server answered with status \(status)."
        case .timedOut: "Fetching the token timed out."
        case .transport(let code): "The token server could not be reached (URLError \(code.rawValue))."
        }
    }
}

extension TokenProviderError: CustomStringConvertible {
    /// The same text as ``errorDescription``.
    public var description: String { errorDescription ?? "TokenProviderError" }
}
