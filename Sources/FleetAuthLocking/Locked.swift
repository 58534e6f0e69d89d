import Foundation

/// A value guarded by a lock: the one way FleetAuth shares mutable state between threads in
/// synchronous code, where an actor hop would not do (the verifier's cache, a test clock, the
/// servers' connection pools and counters). Foundation only, so that the app-side libraries can
/// use it too.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` goes through `lock`. Inlinable, so that a caller in
    // another module (the verifier's cache) gets it specialized rather than generic.
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    /// Guards `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
