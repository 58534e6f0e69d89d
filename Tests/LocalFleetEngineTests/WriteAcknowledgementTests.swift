import FleetAuthLocking
import FleetAuthServerHTTP
import Testing

@testable import LocalFleetEngine

@Suite("Waiting for a write to be saved, apart from the state actor")
struct WriteAcknowledgementTests {
    @Test func aWriteSavedBeforeItsCallerWaitsReturnsAtOnce() async throws {
        let acknowledgement = WriteAcknowledgement()
        acknowledgement.complete(.success(()))
        try await acknowledgement.wait()
    }

    @Test func aWaitingCallerResumesOnlyWhenTheWriteIsSaved() async throws {
        let acknowledgement = WriteAcknowledgement()
        let resumed = Locked(false)
        let waiter = Task {
            try await acknowledgement.wait()
            resumed.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(50))
        // Cancelling does not end the wait: only the save does.
        waiter.cancel()
        try await Task.sleep(for: .milliseconds(20))
        #expect(!resumed.withLock { $0 })
        acknowledgement.complete(.success(()))
        try await waiter.value
        #expect(resumed.withLock { $0 })
    }

    @Test func aSaveRacingItsCallerIntoTheWaitNeverLosesTheWakeUp() async throws {
        for _ in 0..<1000 {
            let acknowledgement = WriteAcknowledgement()
            async let waited: Void = acknowledgement.wait()
            acknowledgement.complete(.success(()))
            try await waited
        }
    }

    @Test func aFailedSaveFailsTheWaitingCaller() async {
        let refusal = APIError(.unavailable, "not saved")
        let acknowledgement = WriteAcknowledgement()
        let waiter = Task { try await acknowledgement.wait() }
        try? await Task.sleep(for: .milliseconds(20))
        acknowledgement.complete(.failure(refusal))
        await #expect(throws: refusal) { try await waiter.value }
        await #expect(throws: refusal) { try await Accepted(value: 1, acknowledgement: acknowledgement).saved() }
    }
}
