import FleetTokenProvider
import Foundation
import Testing

/// The `fetchToken(with:completion:)` API that `GMTDAuthorization` conformances call.
@Suite("Completion-handler API", .timeLimit(.minutes(3)))
struct CompletionHandlerTests {
    private struct Callback: Sendable {
        let token: String?
        let error: String?
        let calledInsideTheCall: Bool
    }

    private static let insideCallKey = "FleetTokenProviderTests.insideFetchTokenCall"

    /// Calls `fetchToken(with:completion:)` `count` times at once from many threads and
    /// collects the callbacks, noting any made while the caller's thread was still inside
    /// the call.
    private func callFromManyThreads(
        _ provider: some AuthorizationTokenProvider,
        context: AuthorizationContext,
        count: Int
    ) async -> [Callback] {
        let (callbacks, continuation) = AsyncStream<Callback>.makeStream()
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: count) { _ in
                let thread = Thread.current.threadDictionary
                thread[Self.insideCallKey] = "yes"
                provider.fetchToken(with: context) { token, error in
                    let inside = Thread.current.threadDictionary[Self.insideCallKey] != nil
                    continuation.yield(
                        Callback(token: token, error: error.map { "\($0)" }, calledInsideTheCall: inside)
                    )
                }
                thread.removeObject(forKey: Self.insideCallKey)
            }
        }
        var collected: [Callback] = []
        for await callback in callbacks {
            collected.append(callback)
            if collected.count == count { break }
        }
        return collected
    }

    @Test("called from many threads at once: one request, every caller called back once, never synchronously")
    func manyThreads() async throws {
        try await FakeTokenServer.run { server in
            let provider = try server.provider()
            let context = AuthorizationContext(vehicleID: "V1")
            for round in ["cold cache", "warm cache"] {
                let callbacks = await callFromManyThreads(provider, context: context, count: 200)
                #expect(callbacks.count == 200, "\(round)")
                #expect(callbacks.allSatisfy { $0.error == nil }, "\(round)")
                #expect(Set(callbacks.compactMap(\.token)).count == 1, "\(round)")
                #expect(!callbacks.contains { $0.calledInsideTheCall }, "\(round)")
            }
            #expect(await server.requestCount == 1)
        }
    }

    @Test("an error reaches the completion handler with no token")
    func reportsErrors() async throws {
        try await FakeTokenServer.run { server in
            await server.state.enqueue(.status(403))
            let provider = try server.provider()
            let callbacks = await callFromManyThreads(
                provider, context: AuthorizationContext(vehicleID: "V1"), count: 1)
            #expect(callbacks.first?.token == nil)
            #expect(callbacks.first?.error == "\(TokenProviderError.forbidden)")
        }
    }
}
