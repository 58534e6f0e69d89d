import FleetTokenProvider

/// What the followers share: a reading at once, then one every interval, transient failures
/// retried with a ``RetryPolicy``'s backoff (or the wait a `Retry-After` asks for), until a
/// reading is final.
struct Polling<Reading: Sendable> {
    /// The time between two readings.
    let interval: Duration
    /// Backoff between failed readings, and how many failures in a row end the readings.
    let retryPolicy: RetryPolicy
    private var hasRead = false
    private var isOver = false

    /// Polls every `interval`, retrying with `retryPolicy`.
    init(interval: Duration, retryPolicy: RetryPolicy) {
        self.interval = interval
        self.retryPolicy = retryPolicy
    }

    /// The next reading `read` takes, after the interval; `nil` once a reading `isFinal` said
    /// was final was returned.
    ///
    /// - Throws: A ``FleetEngineError`` that is not transient or that outlasted the retries,
    ///   or `CancellationError`.
    mutating func next(read: () async throws -> Reading, isFinal: (Reading) -> Bool) async throws -> Reading? {
        guard !isOver else { return nil }
        if hasRead { try await Task.sleep(for: interval) }
        hasRead = true
        var failures = 0
        while true {
            do {
                let reading = try await read()
                isOver = isFinal(reading)
                return reading
            } catch let error as FleetEngineError where error.isTransient && failures + 1 < retryPolicy.maxAttempts {
                failures += 1
                try await retryPolicy.sleep(retryPolicy.delay(afterAttempt: failures, retryAfter: error.retryAfter))
            }
        }
    }
}
