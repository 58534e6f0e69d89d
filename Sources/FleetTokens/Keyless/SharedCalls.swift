import FleetAuthLocking

/// Lets callers that ask for the same key while a call for it runs share its result instead
/// of making another. A caller that is cancelled stops waiting at once; the call goes on for
/// the others, and is forgotten when it ends.
actor SharedCalls {
    private var inFlight: [String: Task<String, any Error>] = [:]

    /// The result of the call for `key` under way, or of `operation` started now.
    ///
    /// - Throws: the call's error, or `CancellationError` when this caller is cancelled first.
    func run(key: String, _ operation: @escaping @Sendable () async throws -> String) async throws -> String {
        let call = inFlight[key] ?? start(key: key, operation)
        return try await Self.result(of: call)
    }

    private func start(key: String, _ operation: @escaping @Sendable () async throws -> String) -> Task<
        String, any Error
    > {
        let call = Task { try await operation() }
        inFlight[key] = call
        Task {
            _ = await call.result
            forget(call, of: key)
        }
        return call
    }

    /// Forgets `call` once it ended, unless a later call for `key` took its place.
    private func forget(_ call: Task<String, any Error>, of key: String) {
        if inFlight[key] == call { inFlight[key] = nil }
    }

    /// The result of `call`, or `CancellationError` as soon as the calling task is cancelled.
    private static func result(of call: Task<String, any Error>) async throws -> String {
        let waiter = Locked<CheckedContinuation<String, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.withLock { $0 = continuation }
                if Task.isCancelled { waiter.withLock { $0.take() }?.resume(throwing: CancellationError()) }
                Task {
                    let result = await call.result
                    waiter.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }
}
