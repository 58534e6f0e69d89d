import FleetTokenProvider

/// Sends a driver's locations to Fleet Engine as the vehicle's `lastLocation`, with the driver
/// token, the way the Driver SDK's location reporting does.
///
/// - At most one request is in flight. A location reported while one is in flight waits; a
///   newer one supersedes it, so only the latest unsent location is ever sent.
/// - Network failures, 5xx, 429 and token-server outages are retried with capped, jittered
///   exponential backoff (the ``RetryPolicy``), or after the wait Fleet Engine's
///   `Retry-After` asks for (capped too); each retry sends the newest location.
/// - A 401 makes the client invalidate the token and try once more with a fresh one (see
///   ``FleetEngineClient``); a 403, a second 401 or an unknown vehicle stops the reporter
///   and surfaces the error as ``ReporterEvent/stopped(_:)`` and ``stopReason``.
/// - Everything it does is told through ``events``.
public actor VehicleReporter {
    /// Whose location is reported: an on-demand vehicle, or a delivery vehicle.
    enum Target: Sendable {
        case vehicle(String)
        case deliveryVehicle(String)
    }

    /// The vehicle whose location is reported.
    public nonisolated let vehicleID: String
    private let target: Target
    /// What happened to each location, in order; finishes after ``finish()`` or a stop.
    public nonisolated let events: AsyncStream<ReporterEvent>
    /// Why the reporter stopped, `nil` while it runs.
    public private(set) var stopReason: FleetEngineError?

    private let client: FleetEngineClient
    private let retryPolicy: RetryPolicy
    private let continuation: AsyncStream<ReporterEvent>.Continuation
    private var pending: Pending?
    private var worker: Task<Void, Never>?
    private var isFinishing = false
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a reporter for `vehicleID`.
    ///
    /// - Parameters:
    ///   - vehicleID: The vehicle; its driver token is asked for by this id.
    ///   - client: The Fleet Engine client, with the driver's token provider.
    ///   - retryPolicy: Backoff between failed sends; `maxAttempts` failures in a row drop the
    ///     location then being sent. Default: ``RetryPolicy/locationReporting``.
    ///   - eventBuffering: How many unread events are kept; the newest 4,096 by default.
    public init(
        vehicleID: String,
        client: FleetEngineClient,
        retryPolicy: RetryPolicy = .locationReporting,
        eventBuffering: AsyncStream<ReporterEvent>.Continuation.BufferingPolicy = .bufferingNewest(4096)
    ) {
        self.init(target: .vehicle(vehicleID), client: client, retryPolicy: retryPolicy, eventBuffering: eventBuffering)
    }

    /// A reporter for `target`'s locations (see the public initializer).
    init(
        target: Target, client: FleetEngineClient, retryPolicy: RetryPolicy,
        eventBuffering: AsyncStream<ReporterEvent>.Continuation.BufferingPolicy
    ) {
        switch target {
        case .vehicle(let id), .deliveryVehicle(let id): self.vehicleID = id
        }
        self.target = target
        self.client = client
        self.retryPolicy = retryPolicy
        (events, continuation) = AsyncStream.makeStream(of: ReporterEvent.self, bufferingPolicy: eventBuffering)
    }

    /// Queues `location` to be sent as soon as no other request is in flight, superseding an
    /// unsent older one. Returns at once; ignored once the reporter is finishing or stopped.
    public func report(_ location: VehicleLocation) {
        guard stopReason == nil, !isFinishing else { return }
        if let older = pending { continuation.yield(.superseded(older.location)) }
        pending = Pending(location: location, reportedAt: .now)
        if worker == nil { worker = Task { await sendPending() } }
    }

    /// Stops taking locations, waits until the last one is acknowledged or given up, and
    /// finishes ``events``.
    public func finish() async {
        isFinishing = true
        if worker != nil {
            await withCheckedContinuation { finishWaiters.append($0) }
        }
        continuation.finish()
    }

    /// Sends the pending location until there is none, one request at a time.
    private func sendPending() async {
        var failures = 0
        while let next = pending, stopReason == nil {
            pending = nil
            do {
                switch target {
                case .vehicle(let id): _ = try await client.updateLocation(next.location, ofVehicle: id)
                case .deliveryVehicle(let id): _ = try await client.updateLocation(next.location, ofDeliveryVehicle: id)
                }
                failures = 0
                continuation.yield(.accepted(next.location, latency: .now - next.reportedAt))
            } catch {
                // The worker is never cancelled: a cancellation can only come from the system.
                let failure = error as? FleetEngineError ?? .transport(.cancelled)
                if failure.isTransient {
                    failures += 1
                    await retry(next, after: failure, failures: failures)
                    if failures >= retryPolicy.maxAttempts { failures = 0 }
                } else if failure.isInvalidRequest {
                    continuation.yield(.dropped(next.location, failure))
                } else {
                    stop(failure)
                }
            }
        }
        worker = nil
        finishWaiters.forEach { $0.resume() }
        finishWaiters = []
    }

    /// A location waiting to be sent, and when it was reported.
    private struct Pending {
        let location: VehicleLocation
        let reportedAt: ContinuousClock.Instant
    }

    /// After the `failures`-th failure in a row: drops `failed` if the attempts ran out, else
    /// queues it again (unless a newer one came, which it then yields to) and waits the backoff.
    private func retry(_ failed: Pending, after error: FleetEngineError, failures: Int) async {
        guard failures < retryPolicy.maxAttempts else {
            continuation.yield(.dropped(failed.location, error))
            return
        }
        if pending == nil {
            pending = failed
        } else {
            continuation.yield(.superseded(failed.location))
        }
        let delay = retryPolicy.delay(afterAttempt: failures, retryAfter: error.retryAfter)
        continuation.yield(.retrying(attempt: failures, delay: delay, error: error))
        try? await retryPolicy.sleep(delay)
    }

    private func stop(_ reason: FleetEngineError) {
        stopReason = reason
        pending = nil
        continuation.yield(.stopped(reason))
        continuation.finish()
    }
}
