import FleetAuthHTTP
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call to a Google endpoint, tried again as a ``RetryPolicy`` says when no answer came or
/// the answer was 429 or 5xx (honouring `Retry-After`); any other answer is final. Each attempt
/// takes a slot of `limit` while it is on the wire, none while it waits to try again.
struct GoogleAPICall: Sendable {
    /// Names the call in errors, e.g. `metadata server token`.
    let name: String
    let transport: any HTTPTransport
    let timeout: Duration
    let retryPolicy: RetryPolicy
    /// How many requests of this call may be on the wire at once.
    let limit: ConcurrencyLimit

    /// A call named `name` through `transport`, each attempt bounded by `timeout`, at most
    /// `maxConcurrentRequests` on the wire at once.
    init(
        name: String, transport: any HTTPTransport, timeout: Duration, retryPolicy: RetryPolicy,
        maxConcurrentRequests: Int = .max
    ) {
        self.name = name
        self.transport = transport
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.limit = ConcurrencyLimit(maxConcurrentRequests)
    }

    /// The body of the first 200 answer to `request`.
    ///
    /// - Parameter hint: What to do when the endpoint refuses (4xx), for the error message.
    /// - Throws: ``GoogleAPIError`` once the answer is final or the attempts run out;
    ///   `CancellationError` when the caller is cancelled.
    func body(of request: URLRequest, hint: @Sendable (Int) -> String? = { _ in nil }) async throws -> Data {
        var attempt = 1
        while true {
            let failure: GoogleAPIError
            var retryAfter: Duration?
            do {
                let (body, response) = try await limit.run { try await transport.send(request, timeout: timeout) }
                if response.statusCode == 200 { return body }
                failure = .answer(
                    of: name, httpStatus: response.statusCode, body: body, hint: hint(response.statusCode))
                retryAfter = response.retryAfter
            } catch let error as URLError {
                failure = GoogleAPIError(
                    call: name,
                    message: error.code == .timedOut
                        ? "no answer within \(timeout)"
                        : "no answer (URLError \(error.code.rawValue))")
            }
            guard failure.isTransient, attempt < retryPolicy.maxAttempts else { throw failure }
            try await retryPolicy.sleep(retryPolicy.delay(afterAttempt: attempt, retryAfter: retryAfter))
            attempt += 1
        }
    }
}
