import FleetTokenProvider

/// Follows a shipment the way a consumer app does: reads its ``TaskTrackingInfo`` with the
/// delivery consumer's token (a `trackingID` context) every ``interval`` and yields each
/// reading, until the task is closed.
///
/// ```swift
/// for try await info in ShipmentFollower(trackingID: "shipment-1", client: client) {
///     show(info.remainingStopCount, info.estimatedArrivalTime)
/// }
/// ```
///
/// Failures are handled as ``TripFollower`` handles them: a 401 gets one fresh token, transient
/// failures are retried with backoff, anything else ends the sequence with a ``FleetEngineError``.
public struct ShipmentFollower: AsyncSequence, Sendable {
    /// Each reading of the shipment.
    public typealias Element = TaskTrackingInfo

    /// The shipment followed.
    public let trackingID: String
    /// The time between two readings.
    public let interval: Duration
    private let client: FleetEngineClient
    private let retryPolicy: RetryPolicy

    /// Follows `trackingID` through `client` (whose provider hands out the consumer's tokens).
    ///
    /// - Parameters:
    ///   - interval: The time between two readings. Default 5 s.
    ///   - retryPolicy: Backoff between failed readings and how many failures in a row end
    ///     the sequence. Default: 0.25 s doubling up to 8 s, 8 attempts.
    public init(
        trackingID: String,
        client: FleetEngineClient,
        interval: Duration = .seconds(5),
        retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 8, initialBackoff: .milliseconds(250), maxBackoff: .seconds(8))
    ) {
        self.trackingID = trackingID
        self.client = client
        self.interval = interval
        self.retryPolicy = retryPolicy
    }

    /// Starts following: the first reading is taken at once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: self)
    }

    /// Takes the readings of one ``ShipmentFollower``.
    public struct Iterator: AsyncIteratorProtocol {
        private let follower: ShipmentFollower
        private var polling: Polling<TaskTrackingInfo>

        init(follower: ShipmentFollower) {
            self.follower = follower
            self.polling = Polling(interval: follower.interval, retryPolicy: follower.retryPolicy)
        }

        /// The next reading, after the interval; `nil` once the closed task's reading was yielded.
        ///
        /// - Throws: A ``FleetEngineError`` that is not transient or that outlasted the
        ///   retries, or `CancellationError`.
        public mutating func next() async throws -> TaskTrackingInfo? {
            let follower = follower
            return try await polling.next(read: { try await follower.client.taskTrackingInfo(follower.trackingID) }, isFinal: { $0.state == .closed })
        }
    }
}
