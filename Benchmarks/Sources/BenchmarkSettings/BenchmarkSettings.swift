import Benchmark
import Foundation

/// How long every benchmark of the package runs, the same for all of them.
///
/// A full run measures each benchmark for up to three seconds. With `FLEETAUTH_BENCH_QUICK` set
/// (CI does) each runs a handful of iterations, enough to show it still builds, runs and keeps
/// its deterministic promises (allocations, fetch counts), not to time it.
public enum BenchmarkSettings {
    /// Whether this is a quick run (`FLEETAUTH_BENCH_QUICK` is set).
    public static let isQuick = ProcessInfo.processInfo.environment["FLEETAUTH_BENCH_QUICK"] != nil

    /// The configuration for benchmarks measuring `metrics`, each iteration running the
    /// measured code `scalingFactor` times (the results are per run).
    public static func configuration(_ metrics: [BenchmarkMetric], scalingFactor: BenchmarkScalingFactor = .one)
        -> Benchmark.Configuration
    {
        isQuick
            ? .init(
                metrics: metrics, warmupIterations: 1, scalingFactor: scalingFactor, maxDuration: .milliseconds(300),
                maxIterations: 10)
            : .init(
                metrics: metrics, warmupIterations: 10, scalingFactor: scalingFactor, maxDuration: .seconds(3),
                maxIterations: 1_000_000)
    }
}
