import FleetAuthHTTP
import FleetAuthLocking
import Foundation

/// Where the provider reads the current time; inject a ``ManualTokenClock`` in tests so that
/// nothing sleeps through a real token lifetime.
public protocol TokenClock: Sendable {
    /// The current wall-clock time, comparable with a token's `exp` claim.
    var now: Date { get }
}

/// The device's wall clock.
public struct SystemTokenClock: TokenClock {
    /// Creates the system clock.
    public init() {}

    /// The current time, `Date()`.
    public var now: Date { Date() }
}

extension TokenClock where Self == SystemTokenClock {
    /// The device's wall clock.
    public static var system: SystemTokenClock { SystemTokenClock() }
}

/// A clock that only moves when told to, for tests and simulations.
///
/// It is a class so that the provider and the test share one instance; reads and moves are
/// safe from any thread.
public final class ManualTokenClock: TokenClock {
    private let current: Locked<Date>

    /// Creates a clock that reads `now` until it is advanced.
    public init(now: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.current = Locked(now)
    }

    /// The time the clock has been moved to.
    public var now: Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward (or back, for a negative duration).
    public func advance(by duration: Duration) {
        current.withLock { $0 += duration.timeInterval }
    }
}
