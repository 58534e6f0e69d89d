import Testing

@testable import FleetTokens

/// Callers of the same IAM call share it; one that is cancelled stops waiting at once while the
/// call goes on for the others.
@Suite("Shared calls", .timeLimit(.minutes(3)))
struct SharedCallsTests {
    /// An operation that waits until the test lets it answer, counting how often it ran.
    actor Gate {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var isOpen = false
        private(set) var runs = 0

        func pass() async -> String {
            runs += 1
            if !isOpen { await withCheckedContinuation { waiting.append($0) } }
            return "signed"
        }

        func open() {
            isOpen = true
            waiting.forEach { $0.resume() }
            waiting.removeAll()
        }

        func started() -> Bool { runs > 0 }
    }

    @Test("a cancelled caller stops waiting for the shared call at once; the call goes on and answers the others")
    func cancelledCallerStopsWaiting() async throws {
        let calls = SharedCalls()
        let gate = Gate()
        let patient = Task { try await calls.run(key: "claims") { await gate.pass() } }
        while !(await gate.started()) { await Task.yield() }
        // The call is under way and held at the gate: this caller joins it, then is cancelled.
        let cancelled = Task { try await calls.run(key: "claims") { await gate.pass() } }
        cancelled.cancel()
        // The gate is still closed: the cancelled caller answers without the call ending.
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        await gate.open()
        #expect(try await patient.value == "signed")
        #expect(await gate.runs == 1, "one call, shared, went on to its end")
        // Once the call ended it is forgotten: the next caller makes a new one.
        #expect(try await calls.run(key: "claims") { await gate.pass() } == "signed")
        #expect(await gate.runs == 2)
    }
}
