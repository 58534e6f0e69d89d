/// Lets callers that ask for the same key while a call for it runs share its result instead
/// of making another.
actor SharedCalls {
    private var inFlight: [String: Task<String, any Error>] = [:]

    /// The result of the call for `key` under way, or of `operation` started now. The call is
    /// not cancelled with its callers: others may be waiting for it.
    func run(key: String, _ operation: @escaping @Sendable () async throws -> String) async throws -> String {
        if let shared = inFlight[key] { return try await shared.value }
        let call = Task { try await operation() }
        inFlight[key] = call
        defer { inFlight[key] = nil }
        return try await call.value
    }
}
