import FleetAuthLocking
import FleetEngineClient
import FleetTokenProvider
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real URL-session transport with a gate in front: a test can hold requests, answer the
/// next ones itself with an error (503 as an overloaded Fleet Engine would, or any other
/// status, with a `Retry-After` if asked), and see how many were in flight at once and what
/// they carried.
final class GatedTransport: HTTPTransport {
    struct State: Sendable {
        var isHolding = false
        var failuresToInject = 0
        var injectedStatus = 503
        var injectedRetryAfter: Int?
        var inFlight = 0
        var mostInFlight = 0
        var bodies: [Data] = []
    }

    private let base = URLSessionTransport()
    private let state = Locked(State())

    var current: State { state.withLock { $0 } }

    /// Holds every request from now on until ``release()``.
    func hold() { state.withLock { $0.isHolding = true } }

    /// Lets held and later requests through.
    func release() { state.withLock { $0.isHolding = false } }

    /// Answers the next `count` requests with `status` (and `Retry-After: retryAfter` when
    /// given) without sending them.
    func failNext(_ count: Int, status: Int = 503, retryAfter: Int? = nil) {
        state.withLock { state in
            state.failuresToInject = count
            state.injectedStatus = status
            state.injectedRetryAfter = retryAfter
        }
    }

    func send(_ request: URLRequest, timeout: Duration) async throws -> (Data, HTTPURLResponse) {
        state.withLock { state in
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            state.bodies.append(request.httpBody ?? Data())
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        while state.withLock({ $0.isHolding }) { try await Task.sleep(for: .milliseconds(2)) }
        let injected: (status: Int, headers: [String: String])? = state.withLock { state in
            defer { state.failuresToInject = max(0, state.failuresToInject - 1) }
            guard state.failuresToInject > 0 else { return nil }
            return (state.injectedStatus, state.injectedRetryAfter.map { ["Retry-After": String($0)] } ?? [:])
        }
        if let injected, let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: injected.status, httpVersion: "HTTP/1.1", headerFields: injected.headers)
        {
            return (
                Data(#"{"error":{"code":\#(injected.status),"status":"INJECTED","message":"injected"}}"#.utf8), response
            )
        }
        return try await base.send(request, timeout: timeout)
    }
}
