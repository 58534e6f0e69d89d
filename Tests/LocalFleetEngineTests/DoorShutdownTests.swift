import GRPCCore
import Testing

@testable import LocalFleetEngine

/// What a waiting call (health `Watch`) learns from the gRPC door's shutdown signal.
@Suite(.timeLimit(.minutes(3)))
struct DoorShutdownTests {
    @Test(arguments: [DoorShutdown.Outcome.shuttingDown, .hungUp])
    func aWaitingCallLearnsWhatEndedItsWait(_ cause: DoorShutdown.Outcome) async {
        let shutdown = DoorShutdown()
        let outcome = await withServerContextRPCCancellationHandle { handle in
            async let waited = shutdown.wait()
            try? await Task.sleep(for: .milliseconds(50))
            if cause == .shuttingDown { shutdown.begin() } else { handle.cancel() }
            return await waited
        }
        #expect(outcome == cause)
    }

    @Test func aCallThatWaitsOnceTheShutdownBeganReturnsAtOnce() async {
        let shutdown = DoorShutdown()
        shutdown.begin()
        #expect(await shutdown.wait() == .shuttingDown)
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
