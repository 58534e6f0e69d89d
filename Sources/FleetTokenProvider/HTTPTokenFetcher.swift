import FleetAuthHTTP
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches tokens from the fleet operator's token server over HTTP(S).
///
/// Each fetch sends `GET` to the URL template filled in with the context's ids, after
/// `authorizeRequest` has attached the app's own credentials, and reads the answer with a
/// ``TokenResponseFormat``, with the response's `Date` header as the server's clock.
/// Transport errors, timeouts, 5xx and 429 are retried as the
/// ``RetryPolicy`` says; 401, 403 and unusable answers fail at once with a
/// ``TokenProviderError``.
public struct HTTPTokenFetcher: TokenFetcher {
    /// Attaches the app's own credentials to a request, e.g. its session token as
    /// `Authorization: Bearer …`. Called before every attempt; an error it throws ends the fetch.
    public typealias RequestAuthorizer = @Sendable (inout URLRequest) async throws -> Void

    /// Where tokens are fetched from.
    public let urlTemplate: TokenURLTemplate
    /// Where the answer keeps the token and its expiry.
    public let responseFormat: TokenResponseFormat
    /// How long one attempt may wait for the server.
    public let requestTimeout: Duration
    /// When and how often to try again.
    public let retryPolicy: RetryPolicy
    private let transport: any HTTPTransport
    private let authorizeRequest: RequestAuthorizer

    /// Creates a fetcher for a token server.
    ///
    /// - Parameters:
    ///   - urlTemplate: The token endpoint, e.g. `https://host/v1/tokens/driver/{vehicleId}`.
    ///   - responseFormat: Where the answer keeps the token and its expiry.
    ///   - requestTimeout: How long one attempt may wait for the server. Default 10 s.
    ///   - retryPolicy: When and how often to try again.
    ///   - transport: Sends the requests; `URLSession.shared` by default.
    ///   - authorizeRequest: Attaches the app's own credentials to each request.
    public init(
        urlTemplate: TokenURLTemplate,
        responseFormat: TokenResponseFormat = .standard,
        requestTimeout: Duration = .seconds(10),
        retryPolicy: RetryPolicy = RetryPolicy(),
        transport: any HTTPTransport = URLSessionTransport(),
        authorizeRequest: @escaping RequestAuthorizer = { _ in }
    ) {
        self.urlTemplate = urlTemplate
        self.responseFormat = responseFormat
        self.requestTimeout = requestTimeout
        self.retryPolicy = retryPolicy
        self.transport = transport
        self.authorizeRequest = authorizeRequest
    }

    /// Fetches a token for `context`, retrying as ``retryPolicy`` says.
    ///
    /// - Throws: A ``TokenProviderError``, an error from `authorizeRequest`, or
    ///   `CancellationError`.
    public func fetchToken(for context: AuthorizationContext) async throws -> FetchedToken {
        let url = try urlTemplate.url(for: context)
        var attempt = 1
        while true {
            do {
                return try await fetchOnce(from: url)
            } catch let failure as RetryableFailure where attempt < retryPolicy.maxAttempts {
                try await retryPolicy.sleep(
                    retryPolicy.delay(afterAttempt: attempt, retryAfter: failure.retryAfter)
                )
                attempt += 1
            } catch let failure as RetryableFailure {
                throw failure.error
            }
        }
    }

    /// One request; a failure worth retrying is thrown as a ``RetryableFailure``.
    private func fetchOnce(from url: URL) async throws -> FetchedToken {
        var request = URLRequest(
            url: url,
            cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: requestTimeout.timeInterval
        )
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        try await authorizeRequest(&request)
        let (body, response) = try await send(request)
        switch response.statusCode {
        case 200..<300:
            var fetched = try responseFormat.decode(body)
            fetched.serverDate = response.serverDate
            return fetched
        case 401:
            throw TokenProviderError.unauthorized
        case 403:
            throw TokenProviderError.forbidden
        case 429:
            throw RetryableFailure(.rateLimited, retryAfter: response)
        case 500..<600:
            throw RetryableFailure(.serverError(status: response.statusCode), retryAfter: response)
        default:
            throw TokenProviderError.unexpectedStatus(response.statusCode)
        }
    }

    /// Sends `request`, giving up after ``requestTimeout``, and turns URL loading errors into
    /// ``TokenProviderError``s.
    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await transport.send(request, timeout: requestTimeout)
        } catch let error as URLError where error.code == .timedOut {
            throw RetryableFailure(.timedOut)
        } catch let error as URLError {
            throw RetryableFailure(.transport(error.code))
        }
    }
}

/// A failed attempt that may succeed if tried again, with the wait the server asked for.
private struct RetryableFailure: Error {
    let error: TokenProviderError
    let retryAfter: Duration?

    init(_ error: TokenProviderError, retryAfter response: HTTPURLResponse? = nil) {
        self.error = error
        self.retryAfter = response?.retryAfter
    }
}
