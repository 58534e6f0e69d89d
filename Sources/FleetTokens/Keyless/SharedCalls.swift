/// Runs calls at most `limit` at a time, and lets callers that ask for the same key while a
/// call for it runs share its result instead of making another.
actor SharedCalls {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var inFlight: [String: Task<String, any Error>] = [:]

    /// Calls run at most `limit` at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// The result of the call for `key` under way, or of `operation` started now (once a slot
    /// is free). The call is not cancelled with its callers: others may be waiting for it.
    func run(key: String, _ operation: @escaping @Sendable () async throws -> String) async throws -> String {
        if let shared = inFlight[key] { return try await shared.value }
        let call = Task {
            await acquire()
            defer { release() }
            return try await operation()
        }
        inFlight[key] = call
        defer { inFlight[key] = nil }
        return try await call.value
    }

    private func acquire() async {
        guard running >= limit else {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
