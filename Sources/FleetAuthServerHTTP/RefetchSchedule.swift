import Foundation

/// When a document that is fetched again on demand (a JWKS, say, when a token names a key
/// not at hand) may be fetched: one fetch at a time, which the callers who ask meanwhile
/// share, and at most one per `minimumInterval`, so that a flood of requests with made-up key
/// ids costs one fetch per interval, not one each.
package actor RefetchSchedule {
    private let minimumInterval: Duration
    private let now: @Sendable () -> Date
    /// When the last fetch started, or is due to start when it waits for its slot.
    private var lastAttempt: Date?
    private var inFlight: Task<Void, Never>?

    /// A schedule allowing one fetch per `minimumInterval` of the clock `now`.
    package init(minimumInterval: Duration, now: @escaping @Sendable () -> Date = { Date() }) {
        self.minimumInterval = minimumInterval
        self.now = now
    }

    /// Runs `fetch` now, or joins the one under way. Within `minimumInterval` of the last
    /// fetch it returns `false` at once, unless `waitingForNextSlot`: then it waits for the
    /// fetch the interval next allows, which every caller in between shares (so that a key
    /// that appeared just after a fetch costs its first tokens a wait, not a refusal). Returns
    /// whether a fetch was made, i.e. whether the document may have changed.
    package func run(waitingForNextSlot: Bool = false, _ fetch: @escaping @Sendable () async -> Void) async -> Bool {
        let current = now()
        if let inFlight {
            // A fetch scheduled for later is only worth waiting for by those who asked to wait.
            if !waitingForNextSlot, let lastAttempt, lastAttempt > current { return false }
            await inFlight.value
            // Whoever resumes first clears the finished fetch, so that a caller asking again at
            // once schedules a new one instead of joining this one again.
            if self.inFlight == inFlight { self.inFlight = nil }
            return true
        }
        var wait = Duration.zero
        if let lastAttempt, current.timeIntervalSince(lastAttempt) < minimumInterval.seconds {
            guard waitingForNextSlot else { return false }
            wait = .seconds(minimumInterval.seconds - current.timeIntervalSince(lastAttempt))
        }
        lastAttempt = current.addingTimeInterval(wait.seconds)
        let scheduled = Task { [wait] in
            if wait > .zero { try? await Task.sleep(for: wait) }
            await fetch()
        }
        inFlight = scheduled
        await scheduled.value
        if inFlight == scheduled { inFlight = nil }
        return true
    }

    /// ``run(waitingForNextSlot:_:)``, waiting for the next slot; a caller that joined a fetch
    /// under way, which then `failed()`, waits for the one after it too, as a caller that came
    /// just after the failure does.
    package func runWaitingForNextSlot(
        _ fetch: @escaping @Sendable () async -> Void, failed: @Sendable () async -> Bool
    ) async -> Bool {
        // Read in the same step as run's own look at it: no fetch can start in between.
        let joins = inFlight != nil
        let fetched = await run(waitingForNextSlot: true, fetch)
        guard joins, fetched, await failed() else { return fetched }
        return await run(waitingForNextSlot: true, fetch)
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    package var seconds: TimeInterval {
        let (whole, attoseconds) = components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }
}
