/// At most `limit` operations at a time; the others wait their turn, first come first served.
package actor ConcurrencyLimit {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A limit of `limit` (at least 1) operations at once.
    package init(_ limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `operation` once one of the slots is free, and frees it as soon as it ends.
    package nonisolated func run<Result: Sendable>(_ operation: () async throws -> Result) async throws -> Result {
        await acquire()
        do {
            let result = try await operation()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
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
