import Foundation

extension Duration {
    /// This duration in seconds, for arithmetic with `Date` and for `URLRequest` timeouts.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
