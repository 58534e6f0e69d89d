import FleetAuthServerHTTP
import Foundation
import Hummingbird
import ServiceLifecycle

/// `GET /console/api/events`: server-sent events for one open console page, what changed and
/// nothing else:
/// - `marks`, every ``tick``: the marks of the resources saved since the last (`{"marks":[…]}`);
///   a vehicle that reported ten times meanwhile is sent once, where it is now;
/// - `stats`, every second: the counts, the calls and refusals since start and per second;
/// - `requests`, when calls were made: the newest call's sequence (the page reloads its table).
///
/// The stream ends when the page goes, or when the engine shuts down.
struct ConsoleEventStream: Sendable {
    /// How often changes are sent: a moved vehicle shows within a second, and a page drawing a
    /// busy fleet redraws twice a second, not more.
    static let tick = Duration.milliseconds(500)
    /// How many ticks between two `stats` events.
    static let ticksPerStats = 2

    let console: FleetConsole
    let state: EngineState

    func body() -> ResponseBody {
        ResponseBody { writer in
            let activity = console.activity
            let subscriber = activity.subscribe()
            defer { activity.unsubscribe(subscriber) }
            var totals = console.requests.totals
            var announced = totals.calls
            var lastStats = ContinuousClock.now
            try await writer.write(event("stats", StreamStats(counts: state.counts, totals: totals, perSecond: nil)))
            var ticks = 0
            while !Task.isShuttingDownGracefully {
                try await Task.sleep(for: Self.tick)
                ticks += 1
                let changes = activity.takeChanges(for: subscriber)
                if !changes.isEmpty {
                    try await writer.write(event("marks", ["marks": state.marks(of: changes)]))
                }
                let now = console.requests.totals
                if now.calls != announced {
                    try await writer.write(event("requests", ["latest": now.calls]))
                    announced = now.calls
                }
                if ticks % Self.ticksPerStats == 0 {
                    let elapsed = ContinuousClock.now - lastStats
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    let rates = StreamStats.Rates(
                        calls: Double(now.calls - totals.calls) / seconds,
                        refused: Double(now.refused - totals.refused) / seconds)
                    try await writer.write(
                        event("stats", StreamStats(counts: state.counts, totals: now, perSecond: rates)))
                    totals = now
                    lastStats = .now
                }
            }
            try await writer.finish(nil)
        }
    }

    /// One event: its name and its data, JSON on one line.
    private func event(_ name: String, _ value: some Encodable) -> ByteBuffer {
        ServerSentEvent.encode(name, json: (try? ConsoleRoutes.encoder.encode(value)) ?? Data("{}".utf8))
    }
}

/// The `stats` event.
struct StreamStats: Sendable, Encodable {
    /// Calls and refusals per second since the last `stats` event.
    struct Rates: Sendable, Encodable {
        let calls: Double
        let refused: Double
    }

    let counts: ResourceCounts
    let totals: RequestTotals
    /// `nil` in the first event.
    let perSecond: Rates?
}
