import CommandSupport
import FleetDemo
import ArgumentParser
import FleetTokenProvider
import Foundation
import NIOCore

/// `fleetauth-bench provider`: the client token provider's cache-hit latency, how many fetches
/// a crowd of concurrent callers causes, and how many fetches a long shift takes, all with an
/// in-process fetcher (no network) so that only the provider is measured.
struct ProviderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provider",
        abstract: "Client token provider: cache-hit latency, one fetch per crowd, fetches per shift."
    )

    @Option(help: "Cache hits to time, one by one.")
    var hits = 1_000_000

    @Option(help: "Concurrent callers on a cold cache.")
    var callers = 1000

    @Option(help: "Simulated shift, in hours.")
    var shiftHours = 8

    @Option(help: "Token lifetime, in seconds.")
    var tokenLifetime = 3600

    @Flag(help: "Print JSON.")
    var json = false

    struct Report: Encodable {
        let hits: Int
        let hitMedianNanoseconds: Int64
        let hitP99Nanoseconds: Int64
        let concurrentCallers: Int
        let concurrentFetches: Int
        let shiftHours: Int
        let tokenLifetimeSeconds: Int
        let shiftFetches: Int
        let shiftMinimumFetches: Int
    }

    func run() async throws {
        let latencies = try await Self.cacheHitLatencies(count: hits)
        let shift = try await Self.shiftFetches(hours: shiftHours, lifetime: tokenLifetime)
        let report = Report(
            hits: hits,
            hitMedianNanoseconds: LatencySummary.percentile(0.5, of: latencies),
            hitP99Nanoseconds: LatencySummary.percentile(0.99, of: latencies),
            concurrentCallers: callers,
            concurrentFetches: try await Self.fetchesForConcurrentCallers(callers),
            shiftHours: shiftHours,
            tokenLifetimeSeconds: tokenLifetime,
            shiftFetches: shift.fetches,
            shiftMinimumFetches: shift.minimum
        )
        if json {
            try JSONOutput.print(report)
        } else {
            print(Self.table(report))
        }
    }

    private static let context = AuthorizationContext(vehicleID: "vehicle-42")

    /// Times `count` cache hits one by one, in nanoseconds, after a warm-up.
    private static func cacheHitLatencies(count: Int) async throws -> [Int64] {
        let provider = CachingTokenProvider(fetcher: InProcessFetcher(clock: SystemTokenClock(), lifetimeSeconds: 3600))
        for _ in 0..<10_000 { _ = try await provider.token(for: context) }
        let clock = ContinuousClock()
        var latencies: [Int64] = []
        latencies.reserveCapacity(count)
        for _ in 0..<count {
            let start = clock.now
            _ = try await provider.token(for: context)
            latencies.append(TimeAmount(clock.now - start).nanoseconds)
        }
        return latencies.sorted()
    }

    /// How many fetches `callers` concurrent callers on a cold cache cause, with a fetch slow
    /// enough (50 ms) for all of them to arrive while it runs.
    private static func fetchesForConcurrentCallers(_ callers: Int) async throws -> Int {
        let fetcher = InProcessFetcher(clock: SystemTokenClock(), lifetimeSeconds: 3600, delay: .milliseconds(50))
        let provider = CachingTokenProvider(fetcher: fetcher)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<callers {
                group.addTask { try await provider.token(for: context) }
            }
            try await group.waitForAll()
        }
        return await fetcher.fetches
    }

    /// Fetches over a shift of `hours` with tokens living `lifetime` seconds, asked for every
    /// simulated second, and the fewest possible: ⌈shift ÷ (lifetime − margin)⌉.
    private static func shiftFetches(hours: Int, lifetime: Int) async throws -> (fetches: Int, minimum: Int) {
        let clock = ManualTokenClock()
        let fetcher = InProcessFetcher(clock: clock, lifetimeSeconds: lifetime)
        let configuration = CachingTokenProvider.Configuration()
        let provider = CachingTokenProvider(fetcher: fetcher, configuration: configuration, clock: clock)
        let shift = hours * 3600
        for _ in 0..<shift {
            _ = try await provider.token(for: context)
            clock.advance(by: .seconds(1))
        }
        let margin = min(configuration.refreshMargin / .seconds(1), Double(lifetime) / 4)
        let usable = Double(lifetime) - margin
        return (await fetcher.fetches, Int((Double(shift) / usable).rounded(.up)))
    }

    private static func table(_ report: Report) -> String {
        let rows: [(String, String, String, Bool)] = [
            ("cache hit, median", "\(report.hitMedianNanoseconds) ns", "< 1000 ns", report.hitMedianNanoseconds < 1000),
            ("cache hit, p99", "\(report.hitP99Nanoseconds) ns", "", true),
            (
                "fetches, \(report.concurrentCallers) concurrent callers", "\(report.concurrentFetches)",
                "exactly 1", report.concurrentFetches == 1
            ),
            (
                "fetches, \(report.shiftHours) h shift, \(report.tokenLifetimeSeconds) s tokens", "\(report.shiftFetches)",
                "minimum \(report.shiftMinimumFetches)", report.shiftFetches == report.shiftMinimumFetches
            ),
        ]
        let header = "measure".padding(toLength: 40, withPad: " ", startingAt: 0) + "  result      target"
        return ([header] + rows.map { name, value, target, met in
            name.padding(toLength: 40, withPad: " ", startingAt: 0)
                + "  " + value.padding(toLength: 10, withPad: " ", startingAt: 0)
                + "  " + target.padding(toLength: 12, withPad: " ", startingAt: 0)
                + (target.isEmpty ? "" : met ? "  ok" : "  MISSED")
        }).joined(separator: "\n")
    }
}

/// Hands out tokens in-process, counting fetches: the bench's stand-in for a token server.
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
