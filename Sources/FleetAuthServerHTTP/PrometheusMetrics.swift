import CoreMetrics
import Hummingbird
import Prometheus

/// A Prometheus registry and the swift-metrics factory that records into it.
///
/// Pass ``factory`` to `Counter(label:dimensions:factory:)` and friends instead of
/// bootstrapping the process-global `MetricsSystem`, so that several servers (and tests) in
/// one process can each have their own metrics, or share one set.
package struct PrometheusMetrics: Sendable {
    /// Where the metrics are kept.
    package let registry: PrometheusCollectorRegistry
    /// The factory that creates metrics in ``registry``.
    package let factory: PrometheusMetricsFactory

    /// A new, empty registry. Timers become histograms with buckets from 0.5 ms to 10 s.
    package init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        ]
        self.registry = registry
        self.factory = factory
    }

    /// The metrics in Prometheus' text exposition format.
    package func exposition() -> String {
        registry.emitToString()
    }
}

extension RouterMethods {
    /// Adds `GET path` answering with `metrics` in Prometheus' text format.
    @discardableResult
    package func addMetricsRoute(_ metrics: PrometheusMetrics, path: RouterPath = "/metrics") -> Self {
        get(path) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer()))
            )
        }
    }
}
