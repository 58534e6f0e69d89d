import FleetAuthLocking
import Foundation

/// A clock tests move by hand, starting at a fixed instant.
public final class TestClock: Sendable {
    private let current: Locked<Date>

    /// A clock reading `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(start)
    }

    /// The time now.
    public var now: Date { current.withLock { $0 } }

    /// The time now in whole seconds since 1970.
    public var epochSeconds: Int64 { Int64(now.timeIntervalSince1970) }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// The clock as the closure the libraries and servers take.
    public var function: @Sendable () -> Date { { self.now } }
}
