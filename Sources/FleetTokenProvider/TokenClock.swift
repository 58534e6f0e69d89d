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
/// It is a class so that the provider and the test share one instance; a lock makes reads and
/// moves safe from any thread, which is why its `Sendable` conformance is checked by hand.
public final class ManualTokenClock: TokenClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock that reads `now` until it is advanced.
    public init(now: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.current = now
    }

    /// The time the clock has been moved to.
    public var now: Date {
        lock.withLock { current }
    }

    /// Moves the clock forward (or back, for a negative duration).
    public func advance(by duration: Duration) {
        lock.withLock { current += duration.timeInterval }
    }
}
