import FleetAuthLocking

/// The answers a server's ``PipelineRoute`` is computing, so that the server can wait for them
/// before it closes what they use (its database): they run in tasks of their own, outside the
/// task group that Hummingbird waits for on shutdown.
package final class PipelineAnswersInFlight: Sendable {
    private let state = Locked((count: 0, waiters: [CheckedContinuation<Void, Never>]()))

    /// No answer in flight yet.
    package init() {}

    /// Runs `answer`, counted as in flight until it returns.
    func run<Result>(_ answer: () async -> Result) async -> Result {
        state.withLock { $0.count += 1 }
        defer {
            let waiters = state.withLock { state in
                state.count -= 1
                guard state.count == 0 else { return [CheckedContinuation<Void, Never>]() }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        return await answer()
    }

    /// Returns once no answer is in flight.
    package func drained() async {
        await withCheckedContinuation { waiter in
            let idle = state.withLock { state in
                if state.count == 0 { return true }
                state.waiters.append(waiter)
                return false
            }
            if idle { waiter.resume() }
        }
    }
}
