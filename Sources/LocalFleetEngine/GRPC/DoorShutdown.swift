import FleetAuthLocking
import GRPCCore

/// The gRPC door's graceful shutdown, for the calls that wait for it (health `Watch`). The
/// transport starts each call as a task of its own where its stream is read, so a call cannot
/// see ServiceLifecycle's shutdown, which travels as a task-local value.
@available(macOS 15.0, iOS 18.0, *)
final class DoorShutdown: Sendable {
    /// Why ``wait()`` returned.
    enum Outcome: Sendable {
        /// The door began to shut down.
        case shuttingDown
        /// The caller of the call that waited went away.
        case hungUp
    }

    private let state = Locked(State())

    private struct State {
        var begun = false
        var nextID = 0
        var waiting: [Int: CheckedContinuation<Outcome, Never>] = [:]
        /// Calls whose caller went away before they began to wait.
        var hungUp: Set<Int> = []
    }

    /// Whether ``begin()`` was called.
    var hasBegun: Bool { state.withLock { $0.begun } }

    /// Tells every call waiting, and every call that waits from now on, that the door is
    /// shutting down.
    func begin() {
        let waiting = state.withLock { state in
            state.begun = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        waiting.forEach { $0.resume(returning: .shuttingDown) }
    }

    /// Waits, within a call, until the door begins to shut down or the call's caller goes away.
    func wait() async -> Outcome {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withRPCCancellationHandler {
            await withCheckedContinuation { continuation in
                let outcome: Outcome? = state.withLock { state in
                    if state.begun { return .shuttingDown }
                    if state.hungUp.remove(id) != nil { return .hungUp }
                    state.waiting[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancelRPC: { [state] in
            let waiting = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
                if let waiting = state.waiting.removeValue(forKey: id) { return waiting }
                if !state.begun { state.hungUp.insert(id) }
                return nil
            }
            waiting?.resume(returning: .hungUp)
        }
    }
}
