import FleetTokenProvider

/// Follows a trip the way the Consumer SDK does: reads it with the consumer token every
/// ``interval`` and yields each reading, until the trip is complete or cancelled.
///
/// ```swift
/// for try await trip in TripFollower(tripID: "trip-1", client: client) {
///     show(trip.tripStatus)
/// }
/// ```
///
/// Tokens are refreshed by the client's provider as they age; a 401 makes the client
/// invalidate the token and read once more with a fresh one. Network failures, 5xx and
/// token-server outages are retried with the ``RetryPolicy``'s backoff, or after the wait a
/// `Retry-After` asks for; any other failure (403, 404, attempts run out) ends the sequence
/// with a ``FleetEngineError``.
public struct TripFollower: AsyncSequence, Sendable {
    /// Each reading of the trip.
    public typealias Element = Trip

    /// The trip followed.
    public let tripID: String
    /// The time between two readings.
    public let interval: Duration
    private let client: FleetEngineClient
    private let retryPolicy: RetryPolicy

    /// Follows `tripID` through `client` (whose provider hands out the consumer's tokens).
    ///
    /// - Parameters:
    ///   - interval: The time between two readings. Default 5 s.
    ///   - retryPolicy: Backoff between failed readings and how many failures in a row end
    ///     the sequence. Default: 0.25 s doubling up to 8 s, 8 attempts.
    public init(
        tripID: String,
        client: FleetEngineClient,
        interval: Duration = .seconds(5),
        retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 8, initialBackoff: .milliseconds(250), maxBackoff: .seconds(8))
    ) {
        self.tripID = tripID
        self.client = client
        self.interval = interval
        self.retryPolicy = retryPolicy
    }

    /// Starts following: the first reading is taken at once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: self)
    }

    /// Takes the readings of one ``TripFollower``.
    public struct Iterator: AsyncIteratorProtocol {
        private let follower: TripFollower
        private var polling: Polling<Trip>

        init(follower: TripFollower) {
            self.follower = follower
            self.polling = Polling(interval: follower.interval, retryPolicy: follower.retryPolicy)
        }

        /// The next reading, after the interval; `nil` once a final reading was yielded.
        ///
        /// - Throws: A ``FleetEngineError`` that is not transient or that outlasted the
        ///   retries, or `CancellationError`.
        public mutating func next() async throws -> Trip? {
            let follower = follower
            return try await polling.next(read: { try await follower.client.trip(follower.tripID) }, isFinal: { $0.tripStatus?.isFinal ?? false })
        }
    }
}
