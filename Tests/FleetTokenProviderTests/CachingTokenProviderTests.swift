import FleetTokenProvider
import Foundation
import TestSupport
import Testing

/// The caching provider's decisions, against a real token server on loopback with a clock
/// moved by hand.
@Suite("Caching provider", .timeLimit(.minutes(3)))
struct CachingTokenProviderTests {
    let v1 = AuthorizationContext(vehicleID: "V1")
    let v2 = AuthorizationContext(vehicleID: "V2")

    @Test("reuses a token while more than the margin is left")
    func reusesInsideLifetime() async throws {
        try await FakeTokenServer.run { server in
            let provider = try server.provider()
            let first = try await provider.token(for: v1)
            server.clock.advance(by: .seconds(3200))  // 400 s left: outside the refresh window
            #expect(try await provider.token(for: v1) == first)
            #expect(try await provider.token(for: v1) == first)
            #expect(await server.requestCount == 1)
        }
    }

    @Test("fetches a new token once less than the margin is left")
    func refreshesAfterMargin() async throws {
        try await FakeTokenServer.run { server in
            let provider = try server.provider()
            let first = try await provider.token(for: v1)
            server.clock.advance(by: .seconds(3545))  // 55 s left, under the 60 s margin
            let second = try await provider.token(for: v1)
            #expect(second != first)
            #expect(await server.requestCount == 2)
        }
    }

    @Test("inside the refresh window hands out the old token and refreshes once in the background")
    func refreshesEarlyOnce() async throws {
        try await FakeTokenServer.run { server in
            let events = EventRecorder()
            let provider = try server.provider(events: events)
            let first = try await provider.token(for: v1)
            let gate = await server.holdNextToken()
            server.clock.advance(by: .seconds(3400))  // 200 s left: inside the 300 s window
            for _ in 0..<5 {
                #expect(try await provider.token(for: v1) == first)
            }
            try await waitUntil { await server.requestCount == 2 }
            await gate.open()
            try await events.waitFor("refreshedEarly")
            let second = try await provider.token(for: v1)
            #expect(second != first)
            #expect(await server.requestCount == 2)
        }
    }

    @Test("a 30-second token is reused for most of its life")
    func scalesMarginsForShortTokens() async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(.token(lifetime: 30))
            let events = EventRecorder()
            let provider = try server.provider(events: events)
            let first = try await provider.token(for: v1)
            for _ in 0..<14 {
                server.clock.advance(by: .seconds(1))
                #expect(try await provider.token(for: v1) == first)
            }
            #expect(await server.requestCount == 1)
            server.clock.advance(by: .seconds(2))  // 14 s left: inside the window (half the life)
            #expect(try await provider.token(for: v1) == first)
            try await events.waitFor("refreshedEarly")
            #expect(await server.requestCount == 2)
        }
    }

    @Test("1,000 concurrent callers cause one request and all get its token")
    func coalescesConcurrentCallers() async throws {
        try await FakeTokenServer.run { server in
            let gate = await server.holdNextToken()
            let provider = try server.provider()
            let context = v1
            let crowd = Task {
                try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<1000 {
                        group.addTask { try await provider.token(for: context) }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
            }
            try await waitUntil { await server.requestCount == 1 }
            try await Task.sleep(for: .milliseconds(200))  // lets the other callers join the fetch
            await gate.open()
            let all = try await outcome(of: crowd).get()
            #expect(all.count == 1000)
            #expect(Set(all).count == 1)
            #expect(await server.requestCount == 1)
        }
    }

    @Test("separate contexts get separate tokens, each reused")
    func separatesContexts() async throws {
        try await FakeTokenServer.run { server in
            let provider = CachingTokenProvider(
                fetcher: try server.fetcher(path: "/v1/tokens/consumer/{tripId}"),
                clock: server.clock
            )
            let t1 = AuthorizationContext(tripID: "T1")
            let t2 = AuthorizationContext(tripID: "T2")
            let first = try await provider.token(for: t1)
            let second = try await provider.token(for: t2)
            #expect(first != second)
            #expect(try await provider.token(for: t1) == first)
            #expect(try await provider.token(for: t2) == second)
            let issued = await server.state.issued
            #expect(issued.map(\.path) == ["/v1/tokens/consumer/T1", "/v1/tokens/consumer/T2"])
            #expect(issued.map(\.token) == [first, second])
        }
    }

    @Test("a driver who changes vehicle gets a token for the new vehicle, and the old one is kept")
    func changesVehicle() async throws {
        try await FakeTokenServer.run { server in
            let provider = try server.provider()
            let forV1 = try await provider.token(for: v1)
            let forV2 = try await provider.token(for: v2)
            #expect(forV2 != forV1)
            #expect(await server.state.issued.last?.path == "/v1/tokens/driver/V2")
            #expect(await server.state.issued.last?.token == forV2)
            #expect(try await provider.token(for: v1) == forV1)
            #expect(await server.requestCount == 2)
        }
    }

    @Test("a hung fetch fails with timedOut, and the next call tries again")
    func boundsFetchWithTimeout() async throws {
        try await FakeTokenServer.run { server in
            await server.state.enqueue(.delayed(.seconds(30), .token(lifetime: 3600)))
            // Generous enough that the second, prompt fetch never times out on a loaded machine
            // (the whole suite starts at once on two cores, and 3 s were once not enough); the
            // fetcher's own request timeout longer still, so that it does not retry first.
            let provider = CachingTokenProvider(
                fetcher: try server.fetcher(requestTimeout: .seconds(60)),
                configuration: .init(fetchTimeout: .seconds(10)), clock: server.clock)
            let started = ContinuousClock.now
            await #expect(throws: TokenProviderError.timedOut) { try await provider.token(for: v1) }
            #expect(ContinuousClock.now - started < .seconds(20))
            _ = try await provider.token(for: v1)
            #expect(await server.requestCount == 2)
        }
    }

    @Test("errors are not sticky: after a failure the next call fetches again")
    func errorsAreNotSticky() async throws {
        try await FakeTokenServer.run { server in
            await server.state.enqueue(.status(500))
            let provider = CachingTokenProvider(
                fetcher: try server.fetcher(retryPolicy: SleepRecorder().policy(maxAttempts: 1)),
                clock: server.clock
            )
            await #expect(throws: TokenProviderError.serverError(status: 500)) {
                try await provider.token(for: v1)
            }
            _ = try await provider.token(for: v1)
            #expect(await server.requestCount == 2)
        }
    }

    @Test("invalidate drops the token so that the next call fetches a new one")
    func invalidates() async throws {
        try await FakeTokenServer.run { server in
            let provider = try server.provider()
            let first = try await provider.token(for: v1)
            _ = try await provider.token(for: v2)
            await provider.invalidate(v1)
            let second = try await provider.token(for: v1)
            #expect(second != first)
            _ = try await provider.token(for: v2)
            #expect(await server.requestCount == 3)
        }
    }

    @Test("a cancelled caller stops waiting at once; the others still get the shared fetch's token")
    func cancellationDetachesOneWaiter() async throws {
        try await FakeTokenServer.run { server in
            let gate = await server.holdNextToken()
            let provider = try server.provider()
            let context = v1
            let doomed = Task { try await provider.token(for: context) }
            let others = (0..<3).map { _ in Task { try await provider.token(for: context) } }
            try await waitUntil { await server.requestCount == 1 }
            doomed.cancel()
            let doomedOutcome = try await outcome(of: doomed)  // while the gate is still shut
            #expect(throws: CancellationError.self) { try doomedOutcome.get() }
            await gate.open()
            var tokens: [String] = []
            for other in others { tokens.append(try await outcome(of: other).get()) }
            #expect(Set(tokens).count == 1)
            #expect(await server.requestCount == 1)
        }
    }

    @Test("when every caller is cancelled the fetch still completes and its token is kept")
    func fetchOutlivesItsCallers() async throws {
        try await FakeTokenServer.run { server in
            let gate = await server.holdNextToken()
            let events = EventRecorder()
            let provider = try server.provider(events: events)
            let context = v1
            let caller = Task { try await provider.token(for: context) }
            try await waitUntil { await server.requestCount == 1 }
            caller.cancel()
            let callerOutcome = try await outcome(of: caller)
            #expect(throws: CancellationError.self) { try callerOutcome.get() }
            await gate.open()
            try await events.waitFor("fetched")
            let token = try await provider.token(for: v1)
            #expect(await server.state.issued.map(\.token) == [token])
            #expect(await server.requestCount == 1)
        }
    }

    @Test("the cache holds at most its capacity, dropping the least recently used context")
    func evictsLeastRecentlyUsed() async throws {
        try await FakeTokenServer.run { server in
            let provider = try server.provider(configuration: .init(capacity: 2))
            let v3 = AuthorizationContext(vehicleID: "V3")
            _ = try await provider.token(for: v1)
            _ = try await provider.token(for: v2)
            _ = try await provider.token(for: v1)  // V2 is now the least recently used
            _ = try await provider.token(for: v3)  // drops V2
            #expect(await server.requestCount == 3)
            _ = try await provider.token(for: v1)
            _ = try await provider.token(for: v3)
            #expect(await server.requestCount == 3)
            _ = try await provider.token(for: v2)
            #expect(await server.requestCount == 4)
            #expect(await server.state.requests.last?.path == "/v1/tokens/driver/V2")
        }
    }

    @Test("the event hook reports fetched, reused, invalidated and failed with the context")
    func reportsEvents() async throws {
        try await FakeTokenServer.run { server in
            let events = EventRecorder()
            let provider = try server.provider(events: events)
            _ = try await provider.token(for: v1)
            _ = try await provider.token(for: v1)
            await provider.invalidate(v1)
            await server.state.enqueue(.status(403))
            await #expect(throws: TokenProviderError.forbidden) { try await provider.token(for: v1) }
            #expect(
                events.summary == [
                    "fetched vehicleId=V1",
                    "reused vehicleId=V1",
                    "invalidated vehicleId=V1",
                    "failed vehicleId=V1",
                ])
        }
    }

    @Test("a token with no exp claim and no stated expiry is refused, not cached")
    func refusesTokenWithoutExpiry() async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(.token(claimLifetime: nil, stated: [:]))
            let provider = try server.provider()
            await #expect(throws: TokenProviderError.missingExpiry) { try await provider.token(for: v1) }
            await #expect(throws: TokenProviderError.missingExpiry) { try await provider.token(for: v1) }
            #expect(await server.requestCount == 2)
        }
    }

    @Test("an 8-hour shift with 1-hour tokens takes the fewest fetches possible")
    func longShiftFetchesMinimum() async throws {
        try await FakeTokenServer.run { server in
            let provider = try server.provider()
            let shift = 8 * 3600
            let step = 60
            for _ in stride(from: 0, to: shift, by: step) {
                _ = try await provider.token(for: v1)
                server.clock.advance(by: .seconds(step))
            }
            let usableLifetime = 3600.0 - 60  // the default margin
            let minimum = Int((Double(shift) / usableLifetime).rounded(.up))
            #expect(await server.requestCount == minimum)
        }
    }
}
