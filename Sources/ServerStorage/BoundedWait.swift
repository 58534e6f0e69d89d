import Locking

/// Waits for the outcome of `task` for at most `limit`: `nil` when the limit, or the waiter's
/// own cancellation, comes first. `task` is then cancelled and left to end on its own.
///
/// For work that may never end: a statement written to a PostgreSQL connection after the
/// connection let go of its channel is never answered, and ignores cancellation.
func outcome<Value: Sendable>(of task: Task<Value, any Error>, within limit: Duration) async -> Result<Value, any Error>? {
    let waiter = OnceContinuation<Result<Value, any Error>?>()
    let timer = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        waiter.resume(with: nil)
    }
    defer { timer.cancel() }
    let outcome = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            waiter.set(continuation)
            Task { waiter.resume(with: await task.result) }
        }
    } onCancel: {
        waiter.resume(with: nil)
    }
    if outcome == nil { task.cancel() }
    return outcome
}

/// A continuation resumed once, by whichever of several parties comes first; a resumption
/// before the continuation is set is kept for it.
private final class OnceContinuation<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case suspended(CheckedContinuation<Value, Never>)
        case resumed(Value)
        case done
    }

    private let state = Locked(State.waiting)

    /// Sets the continuation; resumes it at once when a value came before.
    func set(_ continuation: CheckedContinuation<Value, Never>) {
        let early: Value? = state.withLock { state in
            switch state {
            case .waiting:
                state = .suspended(continuation)
                return nil
            case .resumed(let value):
                state = .done
                return value
            case .suspended, .done:
                preconditionFailure("a continuation is set once")
            }
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Resumes with `value`, unless something resumed it before.
    func resume(with value: Value) {
        let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .resumed(value)
                return nil
            case .suspended(let continuation):
                state = .done
                return continuation
            case .resumed, .done:
                return nil
            }
        }
        continuation?.resume(returning: value)
    }
}
