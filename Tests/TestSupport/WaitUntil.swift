import Foundation

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout`; then fails
/// saying what it waited for, so that a broken test stops rather than hangs.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition holds",
    timeout: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting until \(what())") }
        try await Task.sleep(for: .milliseconds(5))
    }
}
