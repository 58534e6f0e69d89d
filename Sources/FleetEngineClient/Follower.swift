import FleetTokenProvider

/// Follows one resource the way the Consumer SDK does: reads it with the consumer's token every
/// ``interval`` and yields each reading, until a reading is final. ``TripFollower`` follows a
/// trip to `COMPLETE` or `CANCELED`, ``ShipmentFollower`` a shipment's tracking info until its
/// task is closed.
///
/// ```swift
/// for try await trip in TripFollower(tripID: "trip-1", client: client) { show(trip.tripStatus) }
/// for try await info in ShipmentFollower(trackingID: "shipment-1", client: client) { show(info.remainingStopCount) }
/// ```
///
/// Tokens are refreshed by the client's provider as they age; a 401 makes the client
/// invalidate the token and read once more with a fresh one. Network failures, 5xx and
/// token-server outages are retried with the ``RetryPolicy``'s backoff, or after the wait a
/// `Retry-After` asks for; any other failure (403, 404, attempts run out) ends the sequence
/// with a ``FleetEngineError``.
public struct Follower<Reading: Sendable>: AsyncSequence, Sendable {
    /// Each reading.
    public typealias Element = Reading

    /// The id of what is followed: the trip id, or the tracking id.
    public let id: String
    /// The time between two readings.
    public let interval: Duration
    private let retryPolicy: RetryPolicy
    private let read: @Sendable () async throws -> Reading
    private let isFinal: @Sendable (Reading) -> Bool

    /// The default backoff: 0.25 s doubling up to 8 s, 8 failures in a row end the sequence.
    public static var defaultRetryPolicy: RetryPolicy {
        RetryPolicy(maxAttempts: 8, initialBackoff: .milliseconds(250), maxBackoff: .seconds(8))
    }

    /// Follows `id` with `read`, until `isFinal` says a reading is the last.
    init(
        id: String, interval: Duration, retryPolicy: RetryPolicy,
        read: @escaping @Sendable () async throws -> Reading, isFinal: @escaping @Sendable (Reading) -> Bool
    ) {
        self.id = id
        self.interval = interval
        self.retryPolicy = retryPolicy
        self.read = read
        self.isFinal = isFinal
    }

    /// Starts following: the first reading is taken at once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: self)
    }

    /// Takes the readings of one ``Follower``.
    public struct Iterator: AsyncIteratorProtocol {
        private let follower: Follower
        private var hasRead = false
        private var isOver = false

        init(follower: Follower) {
            self.follower = follower
        }

        /// The next reading, after the interval; `nil` once a final reading was yielded.
        ///
        /// - Throws: A ``FleetEngineError`` that is not transient or that outlasted the
        ///   retries, or `CancellationError`.
        public mutating func next() async throws -> Reading? {
            guard !isOver else { return nil }
            if hasRead { try await Task.sleep(for: follower.interval) }
            hasRead = true
            let policy = follower.retryPolicy
            var failures = 0
            while true {
                do {
                    let reading = try await follower.read()
                    isOver = follower.isFinal(reading)
                    return reading
                } catch let error as FleetEngineError where error.isTransient && failures + 1 < policy.maxAttempts {
                    failures += 1
                    try await policy.sleep(policy.delay(afterAttempt: failures, retryAfter: error.retryAfter))
                }
            }
        }
    }
}

/// Follows a trip with the consumer's token, until it is complete or cancelled.
public typealias TripFollower = Follower<Trip>

/// Follows a shipment's ``TaskTrackingInfo`` with the delivery consumer's token (a `trackingID`
/// context), until its task is closed.
public typealias ShipmentFollower = Follower<TaskTrackingInfo>

extension Follower where Reading == Trip {
    /// Follows `tripID` through `client` (whose provider hands out the consumer's tokens),
    /// reading every `interval` (default 5 s) and retrying with `retryPolicy`.
    public init(
        tripID: String, client: FleetEngineClient, interval: Duration = .seconds(5),
        retryPolicy: RetryPolicy = defaultRetryPolicy
    ) {
        self.init(
            id: tripID, interval: interval, retryPolicy: retryPolicy, read: { try await client.trip(tripID) },
            isFinal: { $0.tripStatus?.isFinal ?? false })
    }
}

extension Follower where Reading == TaskTrackingInfo {
    /// Follows `trackingID` through `client` (whose provider hands out the delivery consumer's
    /// tokens), reading every `interval` (default 5 s) and retrying with `retryPolicy`.
    public init(
        trackingID: String, client: FleetEngineClient, interval: Duration = .seconds(5),
        retryPolicy: RetryPolicy = defaultRetryPolicy
    ) {
        self.init(
            id: trackingID, interval: interval, retryPolicy: retryPolicy,
            read: { try await client.taskTrackingInfo(trackingID) }, isFinal: { $0.state == .closed })
    }
}
