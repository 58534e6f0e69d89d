import FleetAuthLocking
import FleetTokenProvider
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP fetcher against a real token server on loopback: expiry conventions, retries,
/// and the errors that must not be retried.
@Suite("HTTP fetcher", .timeLimit(.minutes(3)))
struct HTTPTokenFetcherTests {
    let v1 = AuthorizationContext(vehicleID: "V1")

    static let conventions: [(TokenResponseFormat.ExpiryConvention, StatedExpiry)] = [
        (.epochSeconds, .epochSeconds(afterNow: 600)),
        (.epochMilliseconds, .epochMilliseconds(afterNow: 600)),
        (.secondsFromNow, .relative(seconds: 600)),
    ]

    @Test("reads the expiry in each convention", arguments: conventions)
    func readsExpiryConvention(convention: TokenResponseFormat.ExpiryConvention, stated: StatedExpiry) async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(.token(claimLifetime: nil, stated: ["validUntil": stated]))
            let format = TokenResponseFormat(expiryFields: [.init(key: "validUntil", convention: convention)])
            let fetcher = try server.fetcher(responseFormat: format)
            let fetched = try await fetcher.fetchToken(for: v1)
            if convention == .secondsFromNow {
                #expect(fetched.expiresIn == .seconds(600))
            } else {
                #expect(fetched.expiresAt == server.clock.now + 600)
            }
            try await expectLifetime(of: 600, from: fetcher, on: server)
        }
    }

    @Test(
        "when the exp claim and the stated expiry disagree, the earlier wins",
        arguments: [(claim: 3600, stated: 600), (claim: 600, stated: 3600)]
    )
    func earlierExpiryWins(claim: Int, stated: Int) async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(
                .token(claimLifetime: claim, stated: ["expiresAt": .epochSeconds(afterNow: stated)])
            )
            try await expectLifetime(of: 600, from: try server.fetcher(), on: server)
        }
    }

    /// Checks, through a caching provider, that tokens from `fetcher` live `seconds`: still
    /// fresh just before half of it (no early refresh), stale past it less the 60 s margin.
    private func expectLifetime(of seconds: Int, from fetcher: HTTPTokenFetcher, on server: FakeTokenServer)
        async throws
    {
        let provider = CachingTokenProvider(fetcher: fetcher, clock: server.clock)
        let start = await server.requestCount
        let first = try await provider.token(for: v1)
        server.clock.advance(by: .seconds(seconds / 2 - 10))
        #expect(try await provider.token(for: v1) == first)
        #expect(await server.requestCount == start + 1)
        server.clock.advance(by: .seconds(seconds / 2 - 45))  // 55 s left
        #expect(try await provider.token(for: v1) != first)
        #expect(await server.requestCount == start + 2)
    }

    @Test("a 500 is retried after a backoff, then the token is returned")
    func retriesServerError() async throws {
        try await FakeTokenServer.run { server in
            await server.state.enqueue(.status(500))
            let sleeps = SleepRecorder()
            let fetcher = try server.fetcher(retryPolicy: sleeps.policy(random: 1))
            let fetched = try await fetcher.fetchToken(for: v1)
            #expect(fetched.token == (await server.state.issued.first?.token))
            #expect(await server.requestCount == 2)
            #expect(sleeps.recorded == [.milliseconds(500)])
        }
    }

    @Test("backoff doubles up to its cap, with full jitter, and gives up after maxAttempts")
    func backsOffExponentially() async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(.status(503))
            let sleeps = SleepRecorder()
            let fetcher = try server.fetcher(
                retryPolicy: sleeps.policy(maxAttempts: 5, maxBackoff: .seconds(1), random: 0.5)
            )
            await #expect(throws: TokenProviderError.serverError(status: 503)) {
                try await fetcher.fetchToken(for: v1)
            }
            #expect(await server.requestCount == 5)
            // Caps 0.5, 1, 1, 1 s (doubling, capped at 1 s), each halved by the jitter draw of 0.5.
            #expect(
                sleeps.recorded == [.milliseconds(250), .milliseconds(500), .milliseconds(500), .milliseconds(500)])
        }
    }

    @Test("a 429 waits as long as Retry-After says, up to the cap", arguments: [("7", 7), ("120", 30)])
    func honoursRetryAfter(header: String, expectedWait: Int) async throws {
        try await FakeTokenServer.run { server in
            await server.state.enqueue(.status(429, retryAfter: header))
            let sleeps = SleepRecorder()
            let fetcher = try server.fetcher(retryPolicy: sleeps.policy())
            _ = try await fetcher.fetchToken(for: v1)
            #expect(sleeps.recorded == [.seconds(expectedWait)])
            #expect(await server.requestCount == 2)
        }
    }

    @Test("429 on every attempt ends in rateLimited")
    func givesUpWhenRateLimited() async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(.status(429))
            let fetcher = try server.fetcher(retryPolicy: SleepRecorder().policy(maxAttempts: 2))
            await #expect(throws: TokenProviderError.rateLimited) { try await fetcher.fetchToken(for: v1) }
            #expect(await server.requestCount == 2)
        }
    }

    @Test(
        "401, 403 and other refusals are typed and not retried; errors never show credentials",
        arguments: [(401, TokenProviderError.unauthorized), (403, .forbidden), (404, .unexpectedStatus(404))]
    )
    func doesNotRetryRefusals(status: Int, expected: TokenProviderError) async throws {
        try await FakeTokenServer.run { server in
            let session = "session-secret-1234"
            await server.state.enqueue(.status(status, body: #"{"error": "no \#(session)"}"#))
            let sleeps = SleepRecorder()
            let fetcher = try server.fetcher(retryPolicy: sleeps.policy()) { request in
                request.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization")
            }
            let error = await #expect(throws: TokenProviderError.self) { try await fetcher.fetchToken(for: v1) }
            #expect(error == expected)
            #expect(!String(describing: error).contains(session))
            #expect(!(error?.localizedDescription.contains(session) ?? true))
            #expect(await server.requestCount == 1)
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test(
        "an answer without a usable token fails at once with its own error",
        arguments: [
            ("<html>oops</html>", TokenProviderError.malformedResponse),
            ("[]", .malformedResponse),
            (#"{"token": 42}"#, .malformedResponse),
            (#"{"token": "a.b.c", "expiresAt": "soon"}"#, .malformedResponse),
            (#"{"expiresAt": 1700003600}"#, .missingData),
            (#"{"token": null}"#, .missingData),
            (#"{"token": ""}"#, .missingData),
        ]
    )
    func refusesUnusableAnswers(body: String, expected: TokenProviderError) async throws {
        try await FakeTokenServer.run { server in
            await server.state.enqueue(.status(200, body: body))
            let fetcher = try server.fetcher()
            await #expect(throws: expected) { try await fetcher.fetchToken(for: v1) }
            #expect(await server.requestCount == 1)
        }
    }

    @Test("a context without the id the template needs is missingAuthorizationContext, and nothing is sent")
    func refusesMissingContext() async throws {
        try await FakeTokenServer.run { server in
            let fetcher = try server.fetcher()
            await #expect(throws: TokenProviderError.missingAuthorizationContext(placeholder: "vehicleId")) {
                try await fetcher.fetchToken(for: AuthorizationContext(tripID: "T1"))
            }
            #expect(await server.requestCount == 0)
        }
    }

    @Test("the app's credentials are attached to every attempt and ids are percent-encoded")
    func attachesCredentials() async throws {
        try await FakeTokenServer.run { server in
            await server.state.enqueue(.status(502))
            let attempts = Locked(0)
            let fetcher = try server.fetcher { request in
                let attempt = attempts.withLock { count in
                    count += 1
                    return count
                }
                request.setValue("Bearer session-\(attempt)", forHTTPHeaderField: "Authorization")
            }
            _ = try await fetcher.fetchToken(for: AuthorizationContext(vehicleID: "V 1/ü?"))
            let requests = await server.state.requests
            #expect(requests.map(\.authorization) == ["Bearer session-1", "Bearer session-2"])
            #expect(requests.map(\.path) == Array(repeating: "/v1/tokens/driver/V%201%2F%C3%BC%3F", count: 2))
        }
    }

    @Test("an error from the credentials closure ends the fetch unchanged")
    func propagatesAuthorizerErrors() async throws {
        struct NotSignedIn: Error {}
        try await FakeTokenServer.run { server in
            let fetcher = try server.fetcher { _ in throw NotSignedIn() }
            await #expect(throws: NotSignedIn.self) { try await fetcher.fetchToken(for: v1) }
            #expect(await server.requestCount == 0)
        }
    }

    @Test("a slow server hits the request timeout, which is retried")
    func timesOutSlowRequests() async throws {
        try await FakeTokenServer.run { server in
            await server.state.setFallback(.delayed(.seconds(120), .token(lifetime: 3600)))
            let sleeps = SleepRecorder()
            let fetcher = try server.fetcher(
                requestTimeout: .seconds(1),
                retryPolicy: sleeps.policy(maxAttempts: 2)
            )
            let started = ContinuousClock.now
            await #expect(throws: TokenProviderError.timedOut) { try await fetcher.fetchToken(for: v1) }
            #expect(ContinuousClock.now - started < .seconds(30))  // two timeouts of 1 s; the server would take 240 s
            #expect(sleeps.recorded.count == 1, "one retry after the first timeout")
            // Two attempts at most; on a loaded machine either may time out before the server
            // has read it, so the server may have seen fewer.
            #expect(await server.requestCount <= 2)
        }
    }

    @Test("an unreachable server is a transport error, retried up to maxAttempts")
    func retriesTransportErrors() async throws {
        // A port of a server that stopped could meanwhile be another test's server's.
        try await ClosedPort.with { closedPort in
            let sleeps = SleepRecorder()
            let fetcher = HTTPTokenFetcher(
                urlTemplate: try TokenURLTemplate("http://127.0.0.1:\(closedPort)/v1/tokens/driver/{vehicleId}"),
                retryPolicy: sleeps.policy(maxAttempts: 3)
            )
            let error = await #expect(throws: TokenProviderError.self) { try await fetcher.fetchToken(for: v1) }
            guard case .transport = error else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
            #expect(sleeps.recorded.count == 2)
        }
    }
}
