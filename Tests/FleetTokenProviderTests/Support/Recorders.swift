import FleetAuthLocking
import FleetTokenProvider
import Foundation
import TestSupport

/// Collects what the provider reports through its event hook.
final class EventRecorder: Sendable {
    private let events = Locked<[ProviderEvent]>([])

    /// The hook to hand the provider.
    var hook: @Sendable (ProviderEvent) -> Void {
        { event in self.events.withLock { $0.append(event) } }
    }

    /// The events so far, as short words with the context, e.g. `fetched vehicleId=V1`.
    var summary: [String] {
        events.withLock { $0.map { "\(Self.word(for: $0)) \($0.context)" } }
    }

    /// The expiries that fetches brought, in order, on the device's clock.
    var fetchedExpiries: [Date] {
        events.withLock { events in
            events.compactMap { event -> Date? in
                guard case .fetched(_, let expiresAt) = event else { return nil }
                return expiresAt
            }
        }
    }

    /// The clock offsets reported, in order, positive when the server was ahead.
    var skews: [Duration] {
        events.withLock { events in
            events.compactMap { event -> Duration? in
                guard case .clockSkew(_, let serverAhead) = event else { return nil }
                return serverAhead
            }
        }
    }

    /// Waits (up to five seconds) until an event described by `word` has been seen `count` times.
    func waitFor(_ word: String, count: Int = 1) async throws {
        try await waitUntil { self.summary.count { $0.hasPrefix(word + " ") } >= count }
    }

    private static func word(for event: ProviderEvent) -> String {
        switch event {
        case .reused: "reused"
        case .fetched: "fetched"
        case .refreshedEarly: "refreshedEarly"
        case .failed: "failed"
        case .invalidated: "invalidated"
        case .clockSkew: "clockSkew"
        }
    }
}

/// Records the waits a ``RetryPolicy`` asks for instead of sleeping through them.
final class SleepRecorder: Sendable {
    private let sleeps = Locked<[Duration]>([])

    /// The waits asked for so far.
    var recorded: [Duration] { sleeps.withLock { $0 } }

    /// A policy with `maxAttempts` that records its waits and draws `random` for the jitter.
    func policy(maxAttempts: Int = 3, maxBackoff: Duration = .seconds(8), random: Double = 1) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: maxAttempts,
            initialBackoff: .milliseconds(500),
            maxBackoff: maxBackoff,
            maxRetryAfter: .seconds(30),
            random: { random },
            sleep: { duration in self.sleeps.withLock { $0.append(duration) } }
        )
    }
}

/// Holds replies of the fake server back until the test opens it.
actor Gate {
    private var isOpen = false

    /// Lets every held reply go.
    func open() {
        isOpen = true
    }

    /// Returns once the gate is open; throws when the waiting task is cancelled.
    func wait() async throws {
        while !isOpen { try await Task.sleep(for: .milliseconds(5)) }
    }
}

struct TimedOut: Error {}

/// How `task` ended, waiting at most `limit` for it, so that a test fails rather than hangs
/// when the task never ends.
func outcome<Success: Sendable>(
    of task: Task<Success, any Error>,
    within limit: Duration = .seconds(120)
) async throws -> Result<Success, any Error> {
    let ended = Locked<Result<Success, any Error>?>(nil)
    Task {
        let result = await task.result
        ended.withLock { $0 = result }
    }
    try await waitUntil("the task ends", timeout: limit) { ended.withLock { $0 } != nil }
    return ended.withLock { $0 } ?? .failure(TimedOut())
}
