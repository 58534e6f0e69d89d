import FleetAuthLocking
import FleetTokenProvider
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSession.boundedData(for:timeout:)` against a real server on loopback: a timeout, and a
/// caller cancelled mid-request, which is told only once the request has settled.
@Suite("bounded URL loading", .timeLimit(.minutes(3)))
struct BoundedDataTests {
    @Test("an answer within the timeout is returned; a slower one is URLError.timedOut")
    func timeout() async throws {
        try await FakeTokenServer.run { server in
            let request = URLRequest(url: URL(string: server.url("/v1/tokens/driver/V1"))!)
            let (body, response) = try await URLSession.shared.boundedData(for: request, timeout: .seconds(30))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self).contains("\"token\""))

            // The answer would take a minute (the server drops it when the test ends).
            await server.state.setFallback(.delayed(.seconds(60), .token(lifetime: 3600)))
            let started = ContinuousClock.now
            let error = await #expect(throws: URLError.self) {
                try await URLSession.shared.boundedData(for: request, timeout: .milliseconds(300))
            }
            #expect(error?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(20), "the 300 ms timeout, not the minute's wait")
        }
    }

    #if canImport(FoundationNetworking)
        @Test("on Linux a cancelled caller gets CancellationError after the request settles, not by cancelling it")
        func cancellation() async throws {
            try await FakeTokenServer.run { server in
                let gate = Gate()
                await server.state.setFallback(.held(gate, .token(lifetime: 3600)))
                let request = URLRequest(url: URL(string: server.url("/v1/tokens/driver/V1"))!)
                let load = Task { try await URLSession.shared.boundedData(for: request, timeout: .seconds(30)) }
                try await waitUntil("the request reached the server") { await server.requestCount == 1 }
                load.cancel()
                let ended = Locked(false)
                let watcher = Task {
                    _ = try? await load.value
                    ended.withLock { $0 = true }
                }
                try await Task.sleep(for: .milliseconds(200))
                #expect(!ended.withLock { $0 }, "the caller is not told while the request is still out")
                await gate.open()
                await watcher.value
                await #expect(throws: CancellationError.self) { try await load.value }
                #expect(await server.requestCount == 1)
            }
        }
    #endif
}
