import GRPCCore
import Testing

@testable import LocalFleetEngine

/// What a waiting call (health `Watch`) learns from the gRPC door's shutdown signal.
@Suite(.timeLimit(.minutes(1)))
struct DoorShutdownTests {
    @Test func aWaitingCallLearnsThatTheDoorShutsDown() async {
        let shutdown = DoorShutdown()
        let outcome = await withServerContextRPCCancellationHandle { _ in
            async let waited = shutdown.wait()
            try? await Task.sleep(for: .milliseconds(50))
            shutdown.begin()
            return await waited
        }
        #expect(outcome == .shuttingDown)
        #expect(await shutdown.wait() == .shuttingDown, "a call that waits after the shutdown began returns at once")
    }

    @Test func aWaitingCallEndsWhenItsCallerHangsUp() async {
        let shutdown = DoorShutdown()
        let outcome = await withServerContextRPCCancellationHandle { handle in
            async let waited = shutdown.wait()
            try? await Task.sleep(for: .milliseconds(50))
            handle.cancel()
            return await waited
        }
        #expect(outcome == .hungUp)
    }

    @Test func aCallWhoseCallerHasGoneDoesNotWait() async {
        let shutdown = DoorShutdown()
        let outcome = await withServerContextRPCCancellationHandle { handle in
            handle.cancel()
            return await shutdown.wait()
        }
        #expect(outcome == .hungUp)
    }
}
