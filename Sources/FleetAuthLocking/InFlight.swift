/// Work in flight, counted, so that its owner can wait for all of it to end before it closes
/// what the work uses (a server's database, a pool's threads).
package final class InFlight: Sendable {
    private let state = Locked((count: 0, isClosed: false, waiters: [CheckedContinuation<Void, Never>]()))

    /// Nothing in flight yet.
    package init() {}

    /// Counts one more piece of work; `false`, counting nothing, once ``close()`` was called.
    package func enter() -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.count += 1
            return true
        }
    }

    /// Counts one piece of work fewer, and wakes those waiting once none is left.
    package func leave() {
        let waiters = state.withLock { state in
            state.count -= 1
            guard state.count == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once nothing is in flight.
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

    /// Lets no more work in (``enter()`` answers `false` from now on), then returns once
    /// nothing is in flight.
    package func close() async {
        state.withLock { $0.isClosed = true }
        await drained()
    }
}
