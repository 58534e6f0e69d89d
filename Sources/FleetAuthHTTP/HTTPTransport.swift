import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and hands back the answer: the seam between the clients here
/// (FleetTokenProvider's `HTTPTokenFetcher`, the Fleet Engine client, the keyless signer) and the network stack under them.
///
/// ``URLSessionTransport`` is the one apps use. Wrap it to observe or delay requests, or put
/// another HTTP client behind it (a simulator of many apps in one Linux process, for example).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and response, giving up after `timeout`.
    ///
    /// - Throws: `URLError` when no answer came (`.timedOut` once `timeout` passed), or
    ///   `CancellationError` when the caller was cancelled.
    func send(_ request: URLRequest, timeout: Duration) async throws -> (Data, HTTPURLResponse)
}

/// Sends requests through a `URLSession`.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport over `session`.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends `request` (see `URLSession.boundedData(for:timeout:)` for how a timeout and a
    /// cancelled caller are handled on Linux).
    public func send(_ request: URLRequest, timeout: Duration) async throws -> (Data, HTTPURLResponse) {
        let (body, response) = try await session.boundedData(for: request, timeout: timeout)
        guard let response = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (body, response)
    }
}
