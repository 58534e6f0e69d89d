import FleetAuthLocking

/// A continuation resumed once, by whichever of several parties comes first; a resumption
/// before the continuation is set is kept for it.
final class OnceContinuation<Value: Sendable>: Sendable {
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
