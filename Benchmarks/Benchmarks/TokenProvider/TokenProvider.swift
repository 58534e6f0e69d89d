import Benchmark
import BenchmarkSettings
import FleetTokenProvider
import Foundation

/// FleetTokenProvider with an in-process fetcher (no network), so that only the provider is
/// measured: a cache hit, how many fetches a crowd of callers on a cold cache causes, and how
/// many a long shift takes. The promises (one fetch per crowd, the fewest fetches a shift can
/// take, no allocation on a hit) are in `Thresholds/`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = BenchmarkSettings.configuration([.fetches])
    let context = AuthorizationContext(vehicleID: "vehicle-42")

    // Its first fetch falls in the warm-up; every timed call is a hit.
    let warmProvider = CachingTokenProvider(fetcher: InProcessFetcher(clock: SystemTokenClock(), lifetimeSeconds: 3600))
    Benchmark(
        "Cached-token",
        configuration: BenchmarkSettings.configuration(
            [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await warmProvider.token(for: context)) }
    }

    Benchmark("Fetches-for-1000-concurrent-callers-on-a-cold-cache") { benchmark in
        // A fetch slow enough (50 ms) for every caller to arrive while it runs.
        let fetcher = InProcessFetcher(clock: SystemTokenClock(), lifetimeSeconds: 3600, delay: .milliseconds(50))
        let provider = CachingTokenProvider(fetcher: fetcher)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1000 {
                group.addTask { try await provider.token(for: context) }
            }
            try await group.waitForAll()
        }
        benchmark.measurement(.fetches, await fetcher.fetches)
    }

    Benchmark("Fetches-beyond-the-fewest-over-an-8-hour-shift") { benchmark in
        let clock = ManualTokenClock()
        let lifetime = 3600
        let fetcher = InProcessFetcher(clock: clock, lifetimeSeconds: lifetime)
        let configuration = CachingTokenProvider.Configuration()
        let provider = CachingTokenProvider(fetcher: fetcher, configuration: configuration, clock: clock)
        let shift = 8 * 3600
        for _ in 0..<shift {
            _ = try await provider.token(for: context)
            clock.advance(by: .seconds(1))
        }
        // The fewest: one per usable stretch of a token, ⌈shift ÷ (lifetime − refresh margin)⌉
        // (an hour is long enough for the whole margin; the provider caps it at a quarter).
        let fewest = Int((Double(shift) / (Double(lifetime) - configuration.refreshMargin / .seconds(1))).rounded(.up))
        benchmark.measurement(.fetches, await fetcher.fetches - fewest)
    }
}

extension BenchmarkMetric {
    /// Token fetches the provider made.
    static let fetches = BenchmarkMetric.custom("fetches", polarity: .prefersSmaller, useScalingFactor: false)
}

/// Hands out tokens in-process and counts its fetches: the benchmark's token server.
private actor InProcessFetcher: TokenFetcher {
    private(set) var fetches = 0
    private let clock: any TokenClock
    private let lifetimeSeconds: Int
    private let delay: Duration

    init(clock: any TokenClock, lifetimeSeconds: Int, delay: Duration = .zero) {
        self.clock = clock
        self.lifetimeSeconds = lifetimeSeconds
        self.delay = delay
    }

    func fetchToken(for context: AuthorizationContext) async throws -> FetchedToken {
        fetches += 1
        if delay > .zero { try await Task.sleep(for: delay) }
        return FetchedToken(token: "bench-token-\(fetches)", expiresAt: clock.now + TimeInterval(lifetimeSeconds))
    }
}
