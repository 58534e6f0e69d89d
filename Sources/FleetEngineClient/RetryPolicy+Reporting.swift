import FleetTokenProvider

extension RetryPolicy {
    /// The location reporters' default (``VehicleReporter``, ``DeliveryVehicleReporter``):
    /// 0.25 s doubling up to 8 s between attempts, 12 failures in a row before a location is
    /// dropped.
    public static let locationReporting = RetryPolicy(
        maxAttempts: 12, initialBackoff: .milliseconds(250), maxBackoff: .seconds(8))
}
