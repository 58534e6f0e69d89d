import Foundation
import TestSupport

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout`.
func waitUntil(
    _ what: @autoclosure () -> String,
    timeout: Duration = .seconds(20),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting until \(what())") }
        try await Task.sleep(for: .milliseconds(5))
    }
}
