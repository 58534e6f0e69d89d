import CoreMetrics
import FleetAuthServerHTTP

/// What the local Fleet Engine counts for `/metrics`, whichever door a request came through:
/// `fleet_engine_requests_total` by API method, door and status; `fleet_engine_refusals_total`
/// by reason (a token's rule for `UNAUTHENTICATED`, else the status); and
/// `fleet_engine_update_duration_seconds` by door: how long an UpdateVehicle takes until it is
/// acknowledged, that is durable.
struct FleetEngineMetrics: Sendable {
    /// The door a request came through.
    enum Door: String, Sendable {
        case rest, grpc
    }

    /// Where the metrics are kept.
    let prometheus: PrometheusMetrics

    /// Counts a call of API `method` (e.g. `UpdateVehicle`) through `door` that ended with
    /// `refusal` (`nil`: answered) after `elapsed`.
    func record(_ method: String, door: Door, refusal: APIError?, elapsed: Duration) {
        let status = refusal?.code.rawValue ?? "OK"
        Counter(
            label: "fleet_engine_requests_total",
            dimensions: [("method", method), ("door", door.rawValue), ("status", status)],
            factory: prometheus.factory
        ).increment()
        if let refusal, refusal.code != .unauthenticated { refused(reason: refusal.code.rawValue.lowercased()) }
        if refusal == nil, method == "UpdateVehicle" {
            CoreMetrics.Timer(
                label: "fleet_engine_update_duration_seconds", dimensions: [("door", door.rawValue)],
                factory: prometheus.factory
            )
            .recordNanoseconds(
                elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        }
    }

    /// Counts a refusal for `reason`, e.g. `expired` (a token rule) or `permission_denied`.
    func refused(reason: String) {
        Counter(label: "fleet_engine_refusals_total", dimensions: [("reason", reason)], factory: prometheus.factory)
            .increment()
    }
}
