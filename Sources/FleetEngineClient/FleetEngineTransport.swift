import FleetTokenProvider
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request to Fleet Engine. ``URLSessionTransport`` is the one apps use; wrap
/// it to observe or delay requests.
public protocol FleetEngineTransport: Sendable {
    /// Sends `request` and returns the body and response.
    ///
    /// - Throws: ``FleetEngineError/transport(_:)`` when the request did not get an answer,
    ///   `CancellationError` when the caller was cancelled.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// Sends requests through a `URLSession`.
public struct URLSessionTransport: FleetEngineTransport {
    private let session: URLSession

    /// A transport over `session`.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends `request`, giving up after its `timeoutInterval`, and turns URL loading errors
    /// into ``FleetEngineError/transport(_:)``. A cancelled caller gets `CancellationError`
    /// once the request settles (see `URLSession.boundedData(for:timeout:)`).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            let (body, response) = try await session.boundedData(for: request, timeout: .seconds(request.timeoutInterval))
            guard let response = response as? HTTPURLResponse else { throw FleetEngineError.malformedResponse }
            return (body, response)
        } catch let error as URLError {
            throw FleetEngineError.transport(error.code)
        }
    }
}
