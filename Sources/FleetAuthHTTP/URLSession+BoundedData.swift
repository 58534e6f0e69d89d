import FleetAuthLocking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Loads `request` like `data(for:)`, giving up after `timeout`.
    ///
    /// On Linux, cancelling a task that waits in `data(for:)` can deadlock swift-corelibs-foundation
    /// when the cancel races the request's own completion (the cancellation handler holds the
    /// task's lock while waiting for the session's queue, which waits for that lock). So there
    /// the request is never cancelled from a cancellation handler: the timeout cancels it from a
    /// dispatch queue instead, and a caller that was cancelled meanwhile gets `CancellationError`
    /// once the request has settled (within `timeout`). Apple's `URLSession` has no such
    /// problem: there the request honours the timeout and the caller's cancellation directly.
    ///
    /// - Throws: `URLError` (`.timedOut` when `timeout` passed first), or `CancellationError`.
    package func boundedData(for request: URLRequest, timeout: Duration) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            try Task.checkCancellation()
            let outcome: Result<(Data, URLResponse), URLError> = await withCheckedContinuation { continuation in
                let timedOut = Locked(false)
                let task = dataTask(with: request) { data, response, error in
                    if let data, let response, error == nil {
                        continuation.resume(returning: .success((data, response)))
                    } else {
                        let code = (error as? URLError)?.code ?? .badServerResponse
                        continuation.resume(
                            returning: .failure(
                                URLError(code == .cancelled && timedOut.withLock { $0 } ? .timedOut : code)))
                    }
                }
                task.resume()
                let cancel = CancelOnTimeout(task: task)
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
                    timedOut.withLock { $0 = true }
                    cancel.run()
                }
            }
            try Task.checkCancellation()
            return try outcome.get()
        #else
            var request = request
            request.timeoutInterval = timeout.timeInterval
            do {
                return try await data(for: request)
            } catch let error as URLError where error.code == .cancelled {
                throw CancellationError()
            }
        #endif
    }
}

#if canImport(FoundationNetworking)
    /// Cancels a data task when its timeout fires (a no-op if it has finished), holding it weakly
    /// so that a finished task is not kept alive until then.
    private struct CancelOnTimeout: @unchecked Sendable {
        // @unchecked: `URLSessionTask` is thread-safe but not marked `Sendable` on every platform.
        weak var task: URLSessionDataTask?

        func run() { task?.cancel() }
    }
#endif
