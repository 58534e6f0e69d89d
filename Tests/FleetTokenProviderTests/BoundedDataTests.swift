import FleetTokenProvider
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.boundedData(for:timeout:)` against a real server on loopback: a timeout, and a
/// caller cancelled mid-request, which is told only once the request has settled.
@Suite("bounded URL loading", .timeLimit(.minutes(1)))
struct BoundedDataTests {
    @Test("an answer within the timeout is returned; a slower one is URLError.timedOut")
    func timeout() async throws {
        try await FakeTokenServer.run { server in
            let request = URLRequest(url: URL(string: server.url("/v1/tokens/driver/V1"))!)
            let (body, response) = try await URLSession.shared.boundedData(for: request, timeout: .seconds(5))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self).contains("\"token\""))

            await server.state.setFallback(.delayed(.seconds(5), .token(lifetime: 3600)))
            let started = ContinuousClock.now
            let error = await #expect(throws: URLError.self) {
                try await URLSession.shared.boundedData(for: request, timeout: .milliseconds(300))
            }
            #expect(error?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(3))
        }
    }

    #if canImport(FoundationNetworking)
    @Test("on Linux a cancelled caller gets CancellationError after the request settles, not by cancelling it")
    func cancellation() async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(.delayed(.milliseconds(600), .token(lifetime: 3600)))
            let request = URLRequest(url: URL(string: server.url("/v1/tokens/driver/V1"))!)
            let started = ContinuousClock.now
            let load = Task { try await URLSession.shared.boundedData(for: request, timeout: .seconds(10)) }
            try await Task.sleep(for: .milliseconds(100))
            load.cancel()
            await #expect(throws: CancellationError.self) { try await load.value }
            #expect(ContinuousClock.now - started >= .milliseconds(550), "the request ran to its answer")
            #expect(await server.requestCount == 1)
        }
    }
    #endif
}
