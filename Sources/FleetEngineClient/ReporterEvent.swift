/// What a ``VehicleReporter`` did with a location, in order, through its ``VehicleReporter/events``.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum ReporterEvent: Sendable {
    /// Fleet Engine stored the location; `latency` runs from ``VehicleReporter/report(_:)`` to
    /// the acknowledgement.
    case accepted(VehicleLocation, latency: Duration)
    /// A newer location replaced this one before it was acknowledged; it will not be sent.
    case superseded(VehicleLocation)
    /// Sending failed for a reason that may pass (network, 5xx, 429, token server down); the
    /// newest location is sent again after `delay`. `attempt` counts the failures in a row.
    case retrying(attempt: Int, delay: Duration, error: FleetEngineError)
    /// The location was given up: Fleet Engine refused it as invalid (400), or the retry
    /// policy's attempts ran out. Reporting goes on with the next location.
    case dropped(VehicleLocation, FleetEngineError)
    /// The reporter stopped for good: Fleet Engine refused the driver (403, or 401 even with a
    /// fresh token), the vehicle does not exist, or the token server refused the driver.
    case stopped(FleetEngineError)
}
