/// How often and how patiently a client (FleetTokenProvider's `HTTPTokenFetcher`, the Fleet
/// Engine client, the keyless signer) tries again after a transport error, a timeout, a 5xx or
/// a 429: capped exponential backoff with full jitter, or the server's own
/// `Retry-After` (capped) when it sends one.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; 1 means never retry. Default 3.
    public var maxAttempts: Int
    /// The backoff cap after the first failure; it doubles with each further failure. Default 0.5 s.
    public var initialBackoff: Duration
    /// The most the backoff cap grows to. Default 8 s.
    public var maxBackoff: Duration
    /// The most a `Retry-After` header is waited for. Default 30 s.
    public var maxRetryAfter: Duration
    /// A random number in `0..<1` for the jitter; inject a fixed one for deterministic tests.
    public var random: @Sendable () -> Double
    /// Waits between attempts; inject one that records instead of sleeping for fast tests.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a policy; the defaults suit a token server on the internet.
    public init(
        maxAttempts: Int = 3,
        initialBackoff: Duration = .milliseconds(500),
        maxBackoff: Duration = .seconds(8),
        maxRetryAfter: Duration = .seconds(30),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.maxRetryAfter = maxRetryAfter
        self.random = random
        self.sleep = sleep
    }

    /// How long to wait after failed attempt number `attempt` (1 for the first): the server's
    /// `retryAfter` up to ``maxRetryAfter`` when given, else a random share of
    /// `min(maxBackoff, initialBackoff × 2^(attempt − 1))`.
    public func delay(afterAttempt attempt: Int, retryAfter: Duration?) -> Duration {
        if let retryAfter { return min(retryAfter, maxRetryAfter) }
        let growth = Double(1 << min(max(attempt - 1, 0), 62))
        let cap = min(maxBackoff.timeInterval, initialBackoff.timeInterval * growth)
        return .seconds(cap * random())
    }
}
