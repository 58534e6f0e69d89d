import Foundation

/// The one fetch running for a context, and the callers waiting for it.
struct PendingFetch: Sendable {
    /// Why the fetch was started, which decides the event reported when it succeeds.
    enum Reason: Sendable {
        /// No usable token was held; callers are waiting.
        case needed
        /// The held token is inside its refresh window and is still being handed out.
        case earlyRefresh
    }

    /// Tells this fetch from a later one for the same context.
    let id: UInt64
    let reason: Reason
    /// When the request went out; a relative expiry is counted from here.
    let startedAt: Date
    /// Callers waiting for the token, by waiter id.
    var waiters: [UInt64: CheckedContinuation<String, any Error>] = [:]
    /// The fetch itself and the timer that bounds it; whichever finishes first cancels the other.
    var tasks: [Task<Void, Never>] = []

    /// Hands the outcome to every waiter and stops the fetch and its timer.
    func finish(with outcome: Result<String, any Error>) {
        tasks.forEach { $0.cancel() }
        waiters.values.forEach { $0.resume(with: outcome) }
    }
}
